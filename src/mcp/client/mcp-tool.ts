import {
  type CallToolResult,
  CLIENT_CAPABILITIES_META_KEY,
  type Client,
  type JsonSchemaType,
  type JsonSchemaValidator,
  ProtocolError,
  ProtocolErrorCode,
  type Tool,
} from "@modelcontextprotocol/client";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/client/validators/cf-worker";
import type { ToolContext } from "../../agents/callback-context.js";
import { confirmationGate, type FunctionTool } from "../../agents/function-tool.js";
import type { SharedScope } from "../../core/state.js";
import { ATTR } from "../../core/trace.js";
import { mcpFailure } from "./mcp-failure.js";
import { answeredByBaton, askForInput, type InputRetry, inputRequiredOf, inputRetryOf } from "./mcp-input.js";

/**
 * What Baton can answer in `input_required` (decision 054), declared per request on a 2026-07-28
 * connection only: a 2025 server would send these as requests of its own in the middle of a call, which
 * cannot pause a turn, so Baton declares nothing there and such servers do not ask.
 */
const INPUT_CAPABILITIES = { elicitation: { form: {} }, sampling: {}, roots: {} };

function withInputCapabilities<P extends Record<string, unknown>>(client: Client, params: P): P {
  if (client.getProtocolEra() !== "modern") return params;
  return { ...params, _meta: { [CLIENT_CAPABILITIES_META_KEY]: INPUT_CAPABILITIES } };
}

/**
 * The tool as the SDK's `callTool` gets it: without its output schema, which it would check even against
 * an `input_required` answer (the v2 client 2.4.0 does), and which `checkOutput` checks on a complete one.
 */
const unvalidated = (info: McpToolInfo): McpToolInfo => {
  const { outputSchema: _checkedHere, ...rest } = info;
  return rest;
};

/** Each listed tool's compiled output schema (a tool list is reused for `toolListTtl`). */
const outputValidators = new WeakMap<McpToolInfo, JsonSchemaValidator<unknown>>();

/** A complete result checked against the tool's output schema, as the SDK's client checks it. */
export function checkOutput(info: McpToolInfo, result: CallToolResult): void {
  if (info.outputSchema === undefined || result.isError) return;
  if (result.structuredContent === undefined)
    throw new ProtocolError(
      ProtocolErrorCode.InvalidRequest,
      `Tool ${info.name} has an output schema but did not return structured content`,
    );
  let validate = outputValidators.get(info);
  if (validate === undefined) {
    // SAFETY: the SDK parsed the listed tool's outputSchema as a JSON Schema object; the validator's type
    // differs only in `$schema?` under exactOptionalPropertyTypes.
    validate = new CfWorkerJsonSchemaValidator().getValidator(info.outputSchema as JsonSchemaType);
    outputValidators.set(info, validate);
  }
  const checked = validate(result.structuredContent);
  if (!checked.valid)
    throw new ProtocolError(
      ProtocolErrorCode.InvalidParams,
      `Structured content does not match the tool's output schema: ${checked.errorMessage ?? ""}`,
    );
}

/** Rounds of `input_required` Baton answers itself (roots) in one run before it asks the user. */
const MAX_ROUNDS = 5;

/** A tool as an MCP server lists it (`tools/list`). */
export type McpToolInfo = Tool;

/** ADK `require_confirmation` for MCP tools: always, never, or a function of the call. */
export type McpConfirmation =
  | boolean
  | ((args: Record<string, unknown>, ctx: ToolContext, tool: McpToolInfo) => boolean | Promise<boolean>);

/** What an MCP tool needs from its toolset: how to reach the server for one call, and its settings. */
export interface McpToolHost {
  readonly url: string;
  readonly stateScopes: readonly SharedScope[] | undefined;
  readonly requireConfirmation: McpConfirmation | undefined;
  /** Milliseconds one call may take. */
  readonly callTimeoutMs: number;
  /** Runs `use` with the invocation's client for this server (connected at its first use in the turn). */
  withClient<T>(ctx: ToolContext, use: (client: Client) => Promise<T>): Promise<T>;
}

/**
 * The function response ADK makes of a tool result (`CallToolResult.model_dump(exclude_none=True)`): the
 * content blocks, the structured content when the server sent some, and `isError`.
 */
export function shapeResult(result: CallToolResult | { toolResult: unknown }): Record<string, unknown> {
  // A pre-2024 server's `{toolResult}` reads as one text block.
  if (!("content" in result)) {
    const text = JSON.stringify("toolResult" in result ? result.toolResult : null);
    return { content: [{ type: "text", text }], isError: false };
  }
  return {
    content: result.content,
    ...(result.structuredContent === undefined ? {} : { structuredContent: result.structuredContent }),
    isError: result.isError ?? false,
  };
}

/**
 * One MCP tool as a Baton tool (ADK `McpTool`): declared with its (prefixed) name, description and
 * `inputSchema`; a call uses the turn's connection to the server, calls `tools/call` with the server's own name, and answers the result
 * as ADK shapes it. A server that is down, slow or answers garbage gives `{"error": …}` with the code,
 * which the model reads, and a failed span with the code in the trace; the turn goes on.
 */
export function mcpTool(info: McpToolInfo, name: string, host: McpToolHost): FunctionTool {
  const description = info.description ?? "";
  return {
    name,
    description,
    isLongRunning: false,
    stateScopes: host.stateScopes,
    declaration: () => ({ name, description, parameters: info.inputSchema }),
    async run(args, ctx) {
      const retry = inputRetryOf(ctx);
      if (retry !== undefined && "declined" in retry) return { ok: true, value: { error: retry.declined } };
      if (retry === undefined) {
        const ask = host.requireConfirmation;
        const needed = typeof ask === "function" ? await ask(args, ctx, info) : ask === true;
        const held = confirmationGate(name, needed, ctx);
        if (held !== undefined) return { ok: true, value: held };
      }
      const attributes = { [ATTR.mcpServer]: host.url, [ATTR.toolName]: info.name };
      const span = ctx.invocation.recorder.start(`mcp tools/call ${info.name}`, attributes, ctx.span);
      try {
        let answers: InputRetry | undefined = retry;
        for (let round = 1; ; round += 1) {
          const params = { name: info.name, arguments: args, ...answers };
          const result = await host.withClient(ctx, (client) =>
            client.callTool(withInputCapabilities(client, params), {
              timeout: host.callTimeoutMs,
              toolDefinition: unvalidated(info),
              allowInputRequired: true,
            }),
          );
          const asked = inputRequiredOf(result);
          if (asked === undefined) {
            checkOutput(info, result);
            span.end();
            return { ok: true, value: shapeResult(result) };
          }
          answers = round < MAX_ROUNDS ? answeredByBaton(asked) : undefined;
          if (answers === undefined) {
            span.end();
            return { ok: true, value: askForInput(ctx, name, asked) };
          }
        }
      } catch (error) {
        const failure = mcpFailure(error, host.url, `tools/call ${info.name}`);
        span.end({ [ATTR.errorCode]: failure.code }, failure);
        return { ok: true, value: { error: `${failure.code}: ${failure.message}` } };
      }
    },
  };
}
