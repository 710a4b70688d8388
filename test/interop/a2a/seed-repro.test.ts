import { afterEach, describe, expect, it } from "vitest";
import { RemoteA2aAgent } from "../../../src/a2a/client/remote-a2a-agent.js";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import { textOf } from "../../../src/core/content.js";
import type { Event } from "../../../src/core/event.js";
import { type Peer, type PeerStep, startPeer } from "../../support/a2a-peer.js";
import { harness } from "../../unit/support/harness.js";
import { scriptedModel } from "../../unit/support/scripted-model.js";

/** The test harness's services refuse HTTP; these tests talk to real peers. */
const realFetch: typeof fetch = (input, init) => fetch(input, init);
const transferTo = (agent_name: string) => ({ calls: [{ name: "transfer_to_agent", args: { agent_name } }] });

let peer: Peer | undefined;
afterEach(async () => {
  await peer?.close();
  peer = undefined;
});

/** A root that transfers to the remote agent, which then reads a file and fails. */
async function seedTree(version: "1.0" | "0.3", steps: PeerStep[]) {
  peer = await startPeer({ version, script: () => steps });
  const remote = new RemoteA2aAgent({
    name: "coder",
    agentCard: peer.cardUrl,
    timeoutMs: 5_000,
    fetch: realFetch,
  });
  const root = new LlmAgent({
    name: "root",
    model: scriptedModel([transferTo("coder")]),
    subAgents: [remote],
  });
  return harness(root);
}

const seedSteps: PeerStep[] = [
  { task: { state: "TASK_STATE_SUBMITTED" } },
  { status: { state: "TASK_STATE_WORKING", message: "Reading a.txt." } },
  { status: { state: "TASK_STATE_FAILED", message: "claude exited with code 1" } },
];
const bareFailureSteps: PeerStep[] = [
  { task: { state: "TASK_STATE_SUBMITTED" } },
  { status: { state: "TASK_STATE_WORKING", message: "Reading a.txt." } },
  { status: { state: "TASK_STATE_FAILED" } },
];

const remoteEvents = (events: Event[]) => events.filter((e) => e.author === "coder");

describe.each(["1.0", "0.3"] as const)(
  "the seed repro against an @a2a-js/sdk peer speaking A2A %s",
  (version) => {
    it("streamed: submitted and working are ordinary events, the failure is an A2A_TASK_FAILED error event", async () => {
      const h = await seedTree(version, seedSteps);
      const events = remoteEvents(await h.turn("fix the bug", { streaming: true }));
      expect(events.map((e) => [e.errorCode, textOf(e.content) || thoughtText(e)])).toEqual([
        [undefined, ""],
        [undefined, "Reading a.txt."],
        ["A2A_TASK_FAILED", "claude exited with code 1"],
      ]);
      expect(events[2]?.errorMessage).toBe("claude exited with code 1");
      const stored = remoteEvents((await h.session()).events);
      expect(stored.at(-1)?.errorCode).toBe("A2A_TASK_FAILED");
      expect(peer?.methods).toEqual([version === "1.0" ? "SendStreamingMessage" : "message/stream"]);
    });

    it("not streamed: one failed event, marked the same", async () => {
      const h = await seedTree(version, seedSteps);
      const events = remoteEvents(await h.turn("fix the bug"));
      expect(events).toHaveLength(1);
      expect(events[0]?.errorCode).toBe("A2A_TASK_FAILED");
      expect(events[0]?.errorMessage).toBe("claude exited with code 1");
      expect(textOf(events[0]?.content)).toBe("claude exited with code 1");
      expect(peer?.methods).toEqual([version === "1.0" ? "SendMessage" : "message/send"]);
    });

    it.each([true, false])(
      "a bare failure gives the fallback message, never the progress text (streaming %s)",
      async (streaming) => {
        const h = await seedTree(version, bareFailureSteps);
        const events = remoteEvents(await h.turn("fix the bug", { streaming }));
        const failed = events.filter((e) => e.errorCode === "A2A_TASK_FAILED");
        expect(failed).toHaveLength(1);
        expect(failed[0]?.errorMessage).toBe("Remote A2A task failed");
      },
    );
  },
);

const thoughtText = (e: Event) =>
  (e.content?.parts ?? [])
    .filter((p) => p.thought)
    .map((p) => p.text)
    .join("");
