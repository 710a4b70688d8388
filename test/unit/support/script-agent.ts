import { BaseAgent, type BaseAgentConfig } from "../../../src/agents/base-agent.js";
import type { InvocationContext } from "../../../src/agents/invocation-context.js";
import type { Event } from "../../../src/core/event.js";

/** One step of a scripted agent: say a text, run some code, or fail. */
export type AgentStep =
  | string
  | { escalate: string }
  | ((ctx: InvocationContext) => Promise<void> | void)
  | { throws: Error };

/** A non-LLM agent that plays a script of steps: what workflow-agent tests compose. */
export class ScriptAgent extends BaseAgent {
  readonly transferPolicy = undefined;
  runs = 0;

  constructor(
    config: BaseAgentConfig,
    private readonly steps: readonly AgentStep[],
  ) {
    super(config);
  }

  protected async *runImpl(ctx: InvocationContext): AsyncGenerator<Event> {
    this.runs += 1;
    for (const step of this.steps) {
      if (typeof step === "string") {
        yield ctx.newEvent({ content: { role: "model", parts: [{ text: step }] } });
      } else if (typeof step === "function") await step(ctx);
      else if ("throws" in step) throw step.throws;
      else {
        yield ctx.newEvent({
          content: { role: "model", parts: [{ text: step.escalate }] },
          actions: { escalate: true },
        });
      }
    }
  }
}
