import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
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
const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const close of closers.splice(0)) await close();
});

async function tree(agentCard: string | object, timeoutMs = 5_000) {
  const remote = new RemoteA2aAgent({ name: "coder", agentCard, timeoutMs, fetch: realFetch });
  const rootModel = scriptedModel([transferTo("coder")]);
  return harness(new LlmAgent({ name: "root", model: rootModel, subAgents: [remote] }));
}

async function peerWith(version: "1.0" | "0.3", steps: PeerStep[]): Promise<Peer> {
  const peer = await startPeer({ version, script: () => steps });
  closers.push(() => peer.close());
  return peer;
}

/** A plain HTTP server on 127.0.0.1 that serves a valid card and answers every call with `body`. */
async function garbagePeer(body: string): Promise<string> {
  let url = "";
  const server: Server = createServer((req, res) => {
    if (req.method === "GET") {
      res.setHeader("Content-Type", "application/json");
      res.end(
        JSON.stringify({
          name: "junk",
          description: "",
          version: "1",
          supportedInterfaces: [{ url, protocolBinding: "JSONRPC", protocolVersion: "1.0" }],
          capabilities: { streaming: false },
          defaultInputModes: [],
          defaultOutputModes: [],
          skills: [],
        }),
      );
      return;
    }
    res.setHeader("Content-Type", "application/json");
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  // SAFETY: a server listening on a TCP port reports an AddressInfo.
  const { port } = server.address() as AddressInfo;
  url = `http://127.0.0.1:${port}/rpc`;
  closers.push(() => new Promise((resolve) => server.close(() => resolve())));
  return `http://127.0.0.1:${port}/.well-known/agent-card.json`;
}

const remote = (events: Event[]) => events.filter((e) => e.author === "coder");

describe.each(["1.0", "0.3"] as const)("outcomes against an @a2a-js/sdk peer speaking A2A %s", (version) => {
  it.each([
    ["completed", [{ task: { state: "TASK_STATE_COMPLETED", message: "all done" } }]],
    ["canceled", [{ task: { state: "TASK_STATE_CANCELED", message: "stopped" } }]],
    ["rejected", [{ task: { state: "TASK_STATE_REJECTED", message: "will not" } }]],
    ["input-required", [{ task: { state: "TASK_STATE_INPUT_REQUIRED", message: "Which file?" } }]],
  ] as [string, PeerStep[]][])("a %s task gives no error, streamed or not", async (_state, steps) => {
    const peer = await peerWith(version, steps);
    for (const streaming of [false, true]) {
      const h = await tree(peer.cardUrl);
      const events = remote(await h.turn("go", { streaming }));
      expect(events.length).toBeGreaterThan(0);
      expect(events.every((e) => e.errorCode === undefined && e.errorMessage === undefined)).toBe(true);
    }
  });

  it("a completed streamed task with artifact chunks stores the last chunk", async () => {
    const peer = await peerWith(version, [
      { task: { state: "TASK_STATE_WORKING" } },
      { artifact: { text: "He", lastChunk: false } },
      { artifact: { text: "llo", lastChunk: true, append: true } },
      { status: { state: "TASK_STATE_COMPLETED" } },
    ]);
    const h = await tree(peer.cardUrl);
    const events = remote(await h.turn("go", { streaming: true }));
    expect(events.filter((e) => e.partial).map((e) => textOf(e.content))).toEqual(["He"]);
    expect(remote((await h.session()).events).map((e) => textOf(e.content))).toEqual(["", "llo"]);
  });

  it("a peer slower than the timeout gives A2A_TIMEOUT", async () => {
    const peer = await peerWith(version, [{ task: { state: "TASK_STATE_WORKING" } }, { hang: true }]);
    const h = await tree(peer.cardUrl, 300);
    const events = remote(await h.turn("go"));
    expect(events.at(-1)?.errorCode).toBe("A2A_TIMEOUT");
  });

  it("the second turn carries the first reply's context id", async () => {
    const peer = await peerWith(version, [{ message: "hi" }]);
    const h = await tree(peer.cardUrl);
    await h.turn("one");
    await h.turn("two");
    const [first, second] = peer.received as { contextId?: string }[];
    expect(first?.contextId).toBeTruthy();
    expect(second?.contextId).toBe(first?.contextId);
  });
});

describe("peers that are down or answer garbage", () => {
  it("a peer that is down gives A2A_REQUEST_FAILED, stored, and the turn does not throw", async () => {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    // SAFETY: a server listening on a TCP port reports an AddressInfo.
    const { port } = server.address() as AddressInfo;
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const card = {
      name: "down",
      description: "",
      version: "1",
      supportedInterfaces: [
        { url: `http://127.0.0.1:${port}/rpc`, protocolBinding: "JSONRPC", protocolVersion: "1.0" },
      ],
      capabilities: {},
      defaultInputModes: [],
      defaultOutputModes: [],
      skills: [],
    };
    const h = await tree(card);
    const events = await h.turn("go");
    const failure = remote(events).at(-1);
    expect(failure?.errorCode).toBe("A2A_REQUEST_FAILED");
    expect(failure?.content).toBeUndefined();
    expect((await h.session()).events.at(-1)?.id).toBe(failure?.id);
  });

  it("a peer that answers garbage gives A2A_PROTOCOL_ERROR", async () => {
    const h = await tree(await garbagePeer("<html>oops</html>"));
    expect(remote(await h.turn("go")).at(-1)?.errorCode).toBe("A2A_PROTOCOL_ERROR");
  });

  it("a card URL that is down gives A2A_CARD_UNAVAILABLE", async () => {
    const h = await tree("http://127.0.0.1:9/.well-known/agent-card.json");
    expect(remote(await h.turn("go")).at(-1)?.errorCode).toBe("A2A_CARD_UNAVAILABLE");
  });
});
