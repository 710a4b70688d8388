import { describe, expect, it } from "vitest";
import { chooseInterface } from "../../../src/a2a/client/choose-interface.js";
import { cancelStoppedCall } from "../../../src/a2a/client/stopped-call.js";
import type { A2aMessage } from "../../../src/a2a/protocol/a2a-objects.js";
import { type AgentCardJson, AgentCardJsonSchema } from "../../../src/a2a/protocol/agent-card.js";
import { a2a, cardV1, fakePeer, type Json, PEER_BASE, type PeerReply } from "../support/fake-a2a-peer.js";

const sent: A2aMessage = { messageId: "u-sent", role: "ROLE_USER", parts: [{ text: "go" }] };

/** A task of the listing: its id, state, and the ids of the messages in its history. */
const listed = (id: string, state: string, messageIds: string[]) =>
  a2a.task(state, { id, history: messageIds.map((m) => ({ ...a2a.userMessage(m), messageId: m })) });

const cardV03: Json = {
  name: "peer",
  description: "A fake 0.3 peer",
  version: "1",
  url: `${PEER_BASE}/rpc`,
  preferredTransport: "JSONRPC",
  protocolVersion: "0.3.0",
  capabilities: { streaming: false },
  defaultInputModes: ["text/plain"],
  defaultOutputModes: ["text/plain"],
  skills: [],
};

/** Stops a blocking call to a fake peer that answers `ListTasks` with `listings` in turn, and every cancel. */
async function stop(options: {
  listings?: Json[][];
  message?: A2aMessage;
  card?: Json;
  listing?: PeerReply;
}) {
  const listings = [...(options.listings ?? [])];
  const peer = fakePeer({
    replies: (_call, body) => {
      if (body.method === "CancelTask") {
        const params = body.params as Json;
        return { result: a2a.task("CANCELED", { id: params.id }) };
      }
      if (options.listing) return options.listing;
      return { result: { tasks: listings.shift() ?? [], nextPageToken: "", pageSize: 100, totalSize: 0 } };
    },
  });
  const card: AgentCardJson = AgentCardJsonSchema.parse(options.card ?? cardV1(false));
  const lines: string[] = [];
  const waits: number[] = [];
  await cancelStoppedCall({
    card,
    chosen: chooseInterface(card),
    message: options.message ?? sent,
    last: undefined,
    options: { fetch: peer.fetch, headers: {}, extensions: [], probe: {} },
    sleep: async (ms) => void waits.push(ms),
    log: (line) => void lines.push(line),
  });
  const calls = peer.calls.map((c) => [
    c.method,
    (c.params as Json | undefined)?.id ?? (c.params as Json)?.contextId,
  ]);
  return { calls, lines, waits };
}

describe("a stopped call that named no remote task", () => {
  it("cancels only the unsettled tasks whose history holds the message it sent", async () => {
    const { calls } = await stop({
      listings: [
        [
          listed("t-other", "WORKING", ["u-earlier"]),
          listed("t-ours", "WORKING", ["u-sent"]),
          listed("t-done", "COMPLETED", ["u-sent"]),
          listed("t-asks", "INPUT_REQUIRED", ["u-sent"]),
        ],
      ],
    });
    // No context sent: every task the caller may list (an empty contextId is left off the wire).
    expect(calls).toEqual([
      ["ListTasks", undefined],
      ["CancelTask", "t-ours"],
    ]);
  });

  it("lists only the context it sent the message in", async () => {
    const { calls } = await stop({
      message: { ...sent, contextId: "ctx-1" },
      listings: [[listed("t-ours", "SUBMITTED", ["u-sent"])]],
    });
    expect(calls).toEqual([
      ["ListTasks", "ctx-1"],
      ["CancelTask", "t-ours"],
    ]);
  });

  it("looks again while no task holds the message yet (the peer may not have made it), then gives up", async () => {
    const found = await stop({ listings: [[], [listed("t-late", "WORKING", ["u-sent"])]] });
    expect(found.calls).toEqual([
      ["ListTasks", undefined],
      ["ListTasks", undefined],
      ["CancelTask", "t-late"],
    ]);
    expect(found.waits).toEqual([250]);
    const none = await stop({ listings: [] });
    expect(none.calls.map(([method]) => method)).toEqual(["ListTasks", "ListTasks", "ListTasks"]);
    expect(none.lines).toEqual(["no unsettled remote task holds message u-sent: nothing to cancel"]);
  });

  it("cancels the task a continuation names without listing", async () => {
    const { calls } = await stop({ message: { ...sent, taskId: "t-paused", contextId: "ctx-1" } });
    expect(calls).toEqual([["CancelTask", "t-paused"]]);
  });

  it("only logs when the peer speaks 0.3 (no ListTasks) or refuses the listing", async () => {
    const legacy = await stop({ card: cardV03 });
    expect(legacy.calls).toEqual([]);
    expect(legacy.lines).toEqual([
      "the stopped call named no task, and an A2A 0.3 peer cannot list them: its task may run on",
    ]);
    const refused = await stop({ listing: { error: { code: -32601, message: "Method not found" } } });
    expect(refused.calls).toEqual([["ListTasks", undefined]]);
    expect(refused.lines).toEqual([
      expect.stringMatching(/^could not find the stopped call's remote task: /),
    ]);
  });
});
