import { describe, expect, it } from "vitest";
import { RemoteA2aAgent } from "../../../src/a2a/client/remote-a2a-agent.js";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import type { Event } from "../../../src/core/event.js";
import { findAgentToRun } from "../../../src/router/find-agent-to-run.js";
import { isTransferable, transferTargets } from "../../../src/router/transfer-targets.js";
import { a2a, fakePeer, PEER_BASE } from "../support/fake-a2a-peer.js";
import { harness } from "../support/harness.js";
import { remoteTree, transferTo } from "../support/remote-tree.js";
import { scriptedModel } from "../support/scripted-model.js";

const fromRemote = (events: Event[]) => events.filter((e) => e.author === "remote");
const promptTexts = (call: unknown): string[] =>
  JSON.stringify(call)
    .match(/"text":"((?:[^"\\]|\\.)*)"/g)
    ?.map((m) => JSON.parse(m.slice(7))) ?? [];

describe("history and trust (issue 7 item 8, ADK-SEMANTICS §5.4, §2.1)", () => {
  it("another agent's model sees a failed task as '[remote] failed: <message>', never as something it said", async () => {
    const peer = fakePeer({
      replies: [{ result: { task: a2a.task("FAILED", { statusText: "DB down: secret internals" }) } }],
    });
    const remote = new RemoteA2aAgent({
      name: "remote",
      agentCard: `${PEER_BASE}/.well-known/agent-card.json`,
      fetch: peer.fetch,
    });
    const helperModel = scriptedModel([{ text: "sorry" }]);
    const helper = new LlmAgent({ name: "helper", model: helperModel });
    const rootModel = scriptedModel([transferTo("remote"), transferTo("helper")]);
    const h = await harness(new LlmAgent({ name: "root", model: rootModel, subAgents: [remote, helper] }));
    await h.turn("first");
    await h.turn("second");
    const seen = promptTexts(helperModel.calls[0]?.prompt);
    expect(seen).toContain("[remote] failed: DB down: secret internals");
    expect(seen.some((t) => t.startsWith("[remote] said:"))).toBe(false);
  });

  it("a remote agent has no transfer targets and is never sticky", () => {
    const remote = new RemoteA2aAgent({ name: "remote", agentCard: "https://x.example" });
    new LlmAgent({ name: "root", subAgents: [remote] });
    expect(transferTargets(remote)).toEqual([]);
    expect(isTransferable(remote)).toBe(false);
  });

  it("A21: routing after a failed task with content picks the root", async () => {
    const h = await remoteTree({
      replies: [{ result: { task: a2a.task("FAILED", { statusText: "DB down" }) } }],
    });
    await h.turn("go");
    const session = await h.session();
    expect(fromRemote(session.events).at(-1)?.content).toBeDefined();
    const root = h.runner.app.rootAgent;
    expect(findAgentToRun(session.events, root, () => undefined).name).toBe("root");
  });

  it("A22: of the peer's ADK-extension actions only escalate is honoured, never transfer or state", async () => {
    const h = await remoteTree({
      replies: [
        {
          result: {
            message: {
              ...a2a.agentMessage("done"),
              metadata: { adk_actions: { transferToAgent: "billing", stateDelta: { z: 1 }, escalate: true } },
            },
          },
        },
      ],
    });
    const [event] = fromRemote(await h.turn("go"));
    expect(event?.actions.escalate).toBe(true);
    expect(event?.actions.transferToAgent).toBeUndefined();
    expect(event?.actions.stateDelta).toEqual({});
    expect((await h.session()).state.z).toBeUndefined();
  });

  it("the extension handler takes all artifacts of a task and marks no thoughts", async () => {
    const h = await remoteTree({
      replies: [
        {
          result: {
            task: {
              ...a2a.task("COMPLETED", { artifacts: [a2a.artifact("A", "x"), a2a.artifact("B", "y")] }),
              metadata: { adk_actions: {} },
            },
          },
        },
      ],
    });
    const [event] = fromRemote(await h.turn("go"));
    expect(event?.content?.parts).toEqual([{ text: "x" }, { text: "y" }]);
  });
});
