import { BaseAgent } from "../../../src/agents/base-agent.js";
import type { InvocationContext } from "../../../src/agents/invocation-context.js";
import type { Content } from "../../../src/core/content.js";
import { signal } from "../../support/signal.js";

const modelText = (text: string): Content => ({ role: "model", parts: [{ text }] });

import type { Event } from "../../../src/core/event.js";

/** A promise with its resolver outside, safe across workerd contexts (`signal`). */
export const deferred = signal;

/**
 * An agent that, on each run, says it started, waits until the test opens the gate, then answers with
 * the user's text: it holds a turn (and its session's lease) for exactly as long as a test needs.
 */
export class GateAgent extends BaseAgent {
  readonly transferPolicy = undefined;
  started = deferred();
  #gate = deferred();

  open(): void {
    this.#gate.resolve();
  }

  protected override async *runImpl(ctx: InvocationContext): AsyncGenerator<Event> {
    this.started.resolve();
    await this.#gate.promise;
    const said = ctx.userContent.parts?.[0]?.text ?? "";
    yield ctx.newEvent({ content: modelText(`gate answers: ${said}`) });
  }
}
