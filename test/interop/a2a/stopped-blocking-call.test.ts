import { afterEach, describe, expect, it } from "vitest";
import { RemoteA2aAgent } from "../../../src/a2a/client/remote-a2a-agent.js";
import type { Event } from "../../../src/core/event.js";
import { type Peer, startPeer } from "../../support/a2a-peer.js";
import { harness } from "../../unit/support/harness.js";

/** The test harness's services refuse HTTP; these tests talk to a real peer. */
const realFetch: typeof fetch = (input, init) => fetch(input, init);
let peer: Peer | undefined;
afterEach(async () => {
  await peer?.close();
});

/** The states of the peer's tasks, as its own `ListTasks` reports them (1.0 JSON-RPC). */
async function taskStates(rpcUrl: string): Promise<string[]> {
  const response = await fetch(rpcUrl, {
    method: "POST",
    headers: { "content-type": "application/json", "A2A-Version": "1.0" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ListTasks", params: {} }),
  });
  const body = (await response.json()) as { result: { tasks: { status: { state: string } }[] } };
  return body.result.tasks.map((t) => t.status.state);
}

describe("a stopped blocking call to an @a2a-js/sdk peer (A2A 1.0)", () => {
  it("cancels the task its message started, found with the peer's ListTasks", async () => {
    peer = await startPeer({
      version: "1.0",
      streaming: false,
      script: () => [{ task: { state: "TASK_STATE_WORKING" } }, { hang: true }],
    });
    const remote = new RemoteA2aAgent({
      name: "coder",
      agentCard: peer.cardUrl,
      streaming: false,
      timeoutMs: 30_000,
      fetch: realFetch,
    });
    const h = await harness(remote);
    const turn = h.turn("work on it");
    // The peer is a real server in this process: look until it has the message (no event to wait on).
    while (peer.received.length === 0) await new Promise((r) => setTimeout(r, 20));
    expect(await taskStates(peer.url)).toEqual(["TASK_STATE_WORKING"]);
    const before = peer.methods.length;

    const canceled = await h.store.cancelTurn(h.key);
    expect(canceled).toMatchObject({ errorCode: "TURN_CANCELED" });
    expect((await turn).map((e: Event) => e.errorCode)).toEqual(["TURN_CANCELED"]);
    expect(peer.methods.slice(before)).toEqual(["ListTasks", "CancelTask"]);
    expect(await taskStates(peer.url)).toEqual(["TASK_STATE_CANCELED"]);
  });
});
