import * as z from "zod";
import { BatonError } from "../core/errors.js";
import type { Event } from "../core/event.js";
import { SHARED_SCOPES, type SharedScope } from "../core/state.js";
import { isContent, isEvent, outputContent } from "./content-of.js";
import { NODE, type NodeKind, type NodeSettings, type WorkflowNode } from "./node.js";
import type { NodeContext } from "./node-context.js";
import { isRequestInput, requestInputEvent } from "./request-input.js";
import { checkRetryConfig, type RetryConfig } from "./retry.js";

export interface BaseNodeConfig extends NodeSettings {
  name: string;
}

/**
 * The base of Baton's own node kinds (ADK 2.x `BaseNode`): the settings, and `run`, which turns what
 * `runImpl` yields into events: an event as it is, a `RequestInput` as its `adk_request_input` call,
 * `undefined` as nothing, and any other value as the node's output (an event with `output` and its text).
 */
export abstract class BaseNode implements WorkflowNode {
  readonly [NODE] = true as const;
  readonly name: string;
  readonly description: string;
  abstract readonly kind: NodeKind;
  readonly rerunOnResume: boolean;
  readonly waitForOutput: boolean;
  readonly retryConfig: RetryConfig | undefined;
  readonly timeout: number | undefined;
  readonly idempotent: boolean;
  readonly isolationScope: string | true | undefined;
  readonly inputSchema: z.ZodType | undefined;
  readonly outputSchema: z.ZodType | undefined;
  private readonly stateScopes: readonly SharedScope[] | undefined;

  constructor(config: BaseNodeConfig) {
    const name = config.name.trim();
    if (name === "" || name.includes("/") || name.includes("@"))
      throw new BatonError(
        "invalid_config",
        `Node name "${config.name}" must be non-empty, without "/" or "@".`,
      );
    if (config.timeout !== undefined && !(config.timeout > 0))
      throw new BatonError("invalid_config", `Node "${name}": timeout must be a positive number of seconds.`);
    this.name = name;
    this.description = config.description ?? "";
    this.rerunOnResume = config.rerunOnResume ?? false;
    this.waitForOutput = config.waitForOutput ?? false;
    this.retryConfig = config.retryConfig && checkRetryConfig(name, config.retryConfig);
    this.timeout = config.timeout;
    this.idempotent = config.idempotent ?? false;
    this.isolationScope = config.isolationScope;
    this.inputSchema = config.inputSchema;
    this.outputSchema = config.outputSchema;
    this.stateScopes = config.stateScopes;
  }

  get requiresAllPredecessors(): boolean {
    return false;
  }

  sharedScopes(): readonly SharedScope[] {
    return this.stateScopes ?? SHARED_SCOPES;
  }

  async *run(ctx: NodeContext, input: unknown): AsyncGenerator<Event> {
    const checked = this.checked("input", this.inputSchema, input);
    for await (const item of this.runImpl(ctx, checked)) {
      const event = isRequestInput(item) ? requestInputEvent(ctx, item) : this.toEvent(ctx, item);
      if (event) yield event;
    }
  }

  /** The node's work: yields events, `RequestInput`s or output values. */
  protected abstract runImpl(ctx: NodeContext, input: unknown): AsyncGenerator<unknown>;

  /** One yielded value as an event, or `undefined` for nothing. */
  protected toEvent(ctx: NodeContext, data: unknown): Event | undefined {
    if (data === undefined || data === null) return undefined;
    if (isEvent(data)) return this.withCheckedOutput(data);
    const output = this.checked("output", this.outputSchema, data);
    const content = outputContent(output);
    return ctx.newEvent({ ...(content ? { content } : {}), output });
  }

  protected withCheckedOutput(event: Event): Event {
    if (event.output === undefined || this.outputSchema === undefined) return event;
    return { ...event, output: this.checked("output", this.outputSchema, event.output) };
  }

  /** The value as the schema parses it (content passes unchecked); a mismatch fails the node. */
  protected checked(direction: "input" | "output", schema: z.ZodType | undefined, value: unknown): unknown {
    if (schema === undefined || isContent(value)) return value;
    const parsed = schema.safeParse(value);
    if (parsed.success) return parsed.data;
    throw new BatonError(
      "NODE_ERROR",
      `Node '${this.name}' ${direction} does not match its ${direction}Schema: ${z.prettifyError(parsed.error)}`,
      { agentName: this.name },
    );
  }
}
