import { BatonError } from "../core/errors.js";
import type { Event } from "../core/event.js";
import { BaseNode } from "./base-node.js";
import { isContent, isEvent } from "./content-of.js";
import type { NodeSettings } from "./node.js";
import type { NodeContext } from "./node-context.js";
import type { NodeFunction } from "./node-like.js";

const isAsyncIterable = (value: unknown): value is AsyncIterable<unknown> =>
  typeof value === "object" && value !== null && Symbol.asyncIterator in value;
const isGenerator = (value: unknown): value is Generator<unknown> =>
  typeof value === "object" && value !== null && Symbol.iterator in value && "next" in value;

/**
 * A node around a function (ADK 2.x `FunctionNode`): it returns its output, or yields several values from a
 * generator. State it writes through `ctx.state` goes out on its next event (a state-only event at the end
 * when nothing else carried it). Not idempotent unless declared: a resumed turn never runs it twice.
 * @example
 * const classify = new FunctionNode("classify", (ctx, text: string) => (text.includes("?") ? "question" : "statement"));
 */
export class FunctionNode extends BaseNode {
  readonly kind = "function";
  /** The state writes each run already sent out, so an event carries only what is new. */
  private readonly sent = new WeakMap<NodeContext, Map<string, unknown>>();

  constructor(
    name: string,
    private readonly body: NodeFunction,
    settings: NodeSettings = {},
  ) {
    if (typeof body !== "function")
      throw new BatonError("invalid_config", "A FunctionNode's body must be a function.");
    super({ ...settings, name });
  }

  protected async *runImpl(ctx: NodeContext, input: unknown): AsyncGenerator<unknown> {
    const result: unknown = this.body(ctx, input);
    if (isAsyncIterable(result)) for await (const item of result) yield item;
    else if (isGenerator(result)) for (const item of result) yield item;
    else yield await result;
    // Last, so that state written after the last output still goes out.
    yield undefined;
  }

  protected override toEvent(ctx: NodeContext, data: unknown): Event | undefined {
    const stateDelta = this.unsent(ctx);
    const actions = stateDelta ? { stateDelta } : {};
    if (data === undefined || data === null) return stateDelta ? ctx.newEvent({ actions }) : undefined;
    if (isEvent(data)) {
      const merged = { ...stateDelta, ...data.actions.stateDelta };
      this.markSent(ctx, merged);
      return this.withCheckedOutput({ ...data, actions: { ...data.actions, stateDelta: merged } });
    }
    if (isContent(data)) return ctx.newEvent({ content: data, actions });
    const event = super.toEvent(ctx, data);
    return event && stateDelta ? { ...event, actions: { ...event.actions, stateDelta } } : event;
  }

  /** The state writes of this run not sent on an event yet (new keys or changed values). */
  private unsent(ctx: NodeContext): Record<string, unknown> | undefined {
    const sent = this.sentOf(ctx);
    let delta: Record<string, unknown> | undefined;
    for (const [key, value] of Object.entries(ctx.state.delta)) {
      if (sent.has(key) && sent.get(key) === value) continue;
      delta = delta ?? {};
      delta[key] = value;
      sent.set(key, value);
    }
    return delta;
  }

  private markSent(ctx: NodeContext, delta: Record<string, unknown>): void {
    const sent = this.sentOf(ctx);
    for (const [key, value] of Object.entries(delta)) {
      ctx.state.set(key, value);
      sent.set(key, value);
    }
  }

  private sentOf(ctx: NodeContext): Map<string, unknown> {
    let sent = this.sent.get(ctx);
    if (!sent) {
      sent = new Map();
      this.sent.set(ctx, sent);
    }
    return sent;
  }
}
