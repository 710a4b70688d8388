import * as z from "zod";
import type { LlmRequest, ToolDeclaration } from "../core/llm.js";
import type { SharedScope } from "../core/state.js";
import { adkParameters } from "./adk-parameters.js";
import { longRunningDescription } from "./builtin-declarations.js";
import type { ToolContext } from "./callback-context.js";
import type { RequestToolContext } from "./request-tool.js";

export interface FunctionToolConfig<S extends z.ZodType> {
  name: string;
  description: string;
  /** zod schema of the arguments object; the model sees its JSON Schema. */
  parameters: S;
  execute: (args: z.infer<S>, ctx: ToolContext) => unknown;
  /** A long-running tool (human in the loop): its call id goes in `longRunningToolIds` and the turn pauses. */
  isLongRunning?: boolean;
  /**
   * Ask the user before running (ADK `require_confirmation`): `true`, or a function of the arguments. The
   * turn pauses on an `adk_request_confirmation` call; the tool runs when the user confirms it.
   */
  requireConfirmation?: boolean | ((args: z.infer<S>, ctx: ToolContext) => boolean | Promise<boolean>);
  /**
   * The shared state scopes (`app:`, `user:` keys) `execute` may read or write through its context. Left
   * out, both: a turn then reads both scopes' Durable Objects. `[]` for a tool that touches neither.
   */
  stateScopes?: readonly SharedScope[];
  /**
   * Running the same call twice has the same effect as once (a read, a lookup, a keyed upsert). A turn
   * resumed after a crash runs an unfinished call of an idempotent tool again; an unfinished call of any
   * other tool is never run twice: its response is an "interrupted" error (decision 028). Default `false`.
   */
  idempotent?: boolean;
}

/** A tool the model can call. Build one with `functionTool`. */
export interface FunctionTool {
  readonly name: string;
  readonly description: string;
  readonly isLongRunning: boolean;
  /** Whether an interrupted call may run again on resume (`FunctionToolConfig.idempotent`); unset: no. */
  readonly idempotent?: boolean | undefined;
  /** The shared scopes it may touch; left out, both (see `FunctionToolConfig.stateScopes`). */
  readonly stateScopes?: readonly SharedScope[] | undefined;
  declaration(): ToolDeclaration;
  /**
   * Changes each request of an agent that has the tool, after the request tools (ADK's
   * `process_llm_request` of a callable tool: `load_artifacts` adds its instruction and the files asked for).
   */
  processRequest?(request: LlmRequest, ctx: RequestToolContext): void | Promise<void>;
  /** Validated call: `{ ok: false }` when the arguments do not match the schema. */
  run(
    args: Record<string, unknown>,
    ctx: ToolContext,
  ): Promise<{ ok: true; value: unknown } | { ok: false; error: string }>;
}

/**
 * Defines a tool from a zod schema and a function. It declares itself as ADK Python declares a function
 * with the same parameters (`adkParameters`: no `parameters` for none, no `additionalProperties`, a
 * nullable field as `nullable: true`); a long-running tool's description gets ADK's long-running note.
 * @example
 * const lookupInvoice = functionTool({
 *   name: "lookup_invoice", description: "Finds an invoice by number",
 *   parameters: z.object({ number: z.string() }),
 *   execute: async ({ number }) => ({ number, status: "paid" }),
 * });
 */
export function functionTool<S extends z.ZodType>(config: FunctionToolConfig<S>): FunctionTool {
  const jsonSchema = z.toJSONSchema(config.parameters, { target: "draft-7", io: "input" });
  const parameters = adkParameters(jsonSchema);
  const described = config.isLongRunning ? longRunningDescription(config.description) : config.description;
  return {
    name: config.name,
    description: config.description,
    isLongRunning: config.isLongRunning ?? false,
    idempotent: config.idempotent ?? false,
    stateScopes: config.stateScopes,
    declaration: () => ({
      name: config.name,
      description: described,
      ...(parameters === undefined ? {} : { parameters: structuredClone(parameters) }),
    }),
    async run(args, ctx) {
      const parsed = config.parameters.safeParse(args);
      if (!parsed.success) {
        return { ok: false, error: `Invalid arguments for ${config.name}: ${z.prettifyError(parsed.error)}` };
      }
      const ask = config.requireConfirmation;
      const needed = typeof ask === "function" ? await ask(parsed.data, ctx) : ask === true;
      const held = confirmationGate(config.name, needed, ctx);
      if (held !== undefined) return { ok: true, value: held };
      return { ok: true, value: await config.execute(parsed.data, ctx) };
    },
  };
}

/**
 * ADK's `require_confirmation` check for a call that needs it: the answer to give instead of running (the
 * request for confirmation, or the rejection), or `undefined` when the call may run.
 */
export function confirmationGate(
  name: string,
  needed: boolean,
  ctx: ToolContext,
): Record<string, unknown> | undefined {
  if (!needed) return undefined;
  if (ctx.toolConfirmation === undefined) {
    ctx.requestConfirmation({
      hint: `Please approve or reject the tool call ${name}() by responding with a FunctionResponse with an expected ToolConfirmation payload.`,
    });
    ctx.actions.skipSummarization = true;
    return { error: "This tool call requires confirmation, please approve or reject." };
  }
  return ctx.toolConfirmation.confirmed ? undefined : { error: "This tool call is rejected." };
}
