import { describe, expect, it } from "vitest";
import { BaseAgent } from "../../../src/agents/base-agent.js";
import { handOff } from "../../../src/agents/hand-off.js";
import type { InvocationContext } from "../../../src/agents/invocation-context.js";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import type { Event } from "../../../src/core/event.js";
import { harness } from "../support/harness.js";
import { scriptedModel } from "../support/scripted-model.js";

const policy = { disallowTransferToParent: false, disallowTransferToPeers: false };

/** Hands off to the sub-agent called `to`, optionally after yielding a transfer event naming `named`. */
class HandsOff extends BaseAgent {
  readonly transferPolicy = policy;
  constructor(
    name: string,
    private readonly to: () => BaseAgent,
    private readonly named: string | undefined,
    subAgents: BaseAgent[],
  ) {
    super({ name, subAgents });
  }

  protected override async *runImpl(ctx: InvocationContext): AsyncGenerator<Event> {
    if (this.named) yield ctx.newEvent({ actions: { transferToAgent: this.named } });
    yield* handOff(ctx, this.to());
  }
}

const answering = (name: string) => new LlmAgent({ name, model: scriptedModel([{ text: `${name} here` }]) });

describe("handOff", () => {
  it("runs the target after the stored transfer event, in the same invocation", async () => {
    const target = answering("target");
    const h = await harness(new HandsOff("root", () => target, "target", [target]));
    const events = await h.turn("hi");
    expect(events.map((e) => [e.author, e.actions.transferToAgent])).toEqual([
      ["root", "target"],
      ["target", undefined],
    ]);
  });

  it("refuses an agent that is not a transfer target of the caller: TRANSFER_TARGET_NOT_FOUND", async () => {
    const stranger = answering("stranger");
    const h = await harness(new HandsOff("root", () => stranger, "stranger", [answering("target")]));
    const events = await h.turn("hi");
    expect(events.at(-1)).toMatchObject({ author: "root", errorCode: "TRANSFER_TARGET_NOT_FOUND" });
    expect(events.at(-1)?.errorMessage).toMatch(
      /"stranger" is not a transfer target of "root"; its targets: `target`/,
    );
  });

  it("refuses to run the target before its transfer event is stored: TRANSFER_NOT_STORED", async () => {
    const target = answering("target");
    const h = await harness(new HandsOff("root", () => target, undefined, [target]));
    const events = await h.turn("hi");
    expect(events).toHaveLength(1);
    expect(events[0]).toMatchObject({ author: "root", errorCode: "TRANSFER_NOT_STORED" });
  });
});
