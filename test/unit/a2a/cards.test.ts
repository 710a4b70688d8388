import { describe, expect, it } from "vitest";
import { type CardKvNamespace, kvCardCache, memoryCardCache } from "../../../src/a2a/client/card-cache.js";
import { cardUrls, resolveCard } from "../../../src/a2a/client/card-resolver.js";
import { cardTtlMs } from "../../../src/a2a/client/card-ttl.js";
import { chooseInterface } from "../../../src/a2a/client/choose-interface.js";
import { type AgentCardJson, AgentCardJsonSchema } from "../../../src/a2a/protocol/agent-card.js";
import type { Event } from "../../../src/core/event.js";
import { cardV1, fakePeer, type Json, PEER_BASE } from "../support/fake-a2a-peer.js";
import { remoteTree } from "../support/remote-tree.js";

const base = {
  name: "p",
  description: "",
  version: "1",
  capabilities: {},
  defaultInputModes: [],
  defaultOutputModes: [],
  skills: [],
};
const v1 = (interfaces: Json[]): AgentCardJson =>
  AgentCardJsonSchema.parse({ ...base, supportedInterfaces: interfaces });

/** A KV namespace in memory that records the TTLs it was given. */
function memoryKv(): CardKvNamespace & { ttls: (number | undefined)[]; data: Map<string, string> } {
  const data = new Map<string, string>();
  const ttls: (number | undefined)[] = [];
  return {
    data,
    ttls,
    get: async (key) => data.get(key) ?? null,
    put: async (key, value, options) => {
      data.set(key, value);
      ttls.push(options?.expirationTtl);
    },
  };
}

describe("agent cards (ADK-SEMANTICS §5.1)", () => {
  it("picks a 1.0 card's JSON-RPC interface, a 1.x one first", () => {
    const chosen = chooseInterface(
      v1([
        { url: "https://a/rest", protocolBinding: "HTTP+JSON", protocolVersion: "1.0" },
        { url: "https://a/old", protocolBinding: "JSONRPC", protocolVersion: "0.3" },
        { url: "https://a/rpc", protocolBinding: "JSONRPC", protocolVersion: "1.0" },
      ]),
    );
    expect(chosen).toEqual({ url: "https://a/rpc", binding: "JSONRPC", protocolVersion: "1.0" });
  });

  it("uses a 0.3 card's url and preferred transport, speaking 0.3", () => {
    const card = {
      ...base,
      url: "https://b/a2a",
      preferredTransport: "JSONRPC",
      protocolVersion: "0.3.0",
    } as AgentCardJson;
    expect(chooseInterface(card)).toEqual({
      url: "https://b/a2a",
      binding: "JSONRPC",
      protocolVersion: "0.3",
    });
  });

  it("refuses a card whose only interface is gRPC, or whose URL has no http(s) host", () => {
    expect(() =>
      chooseInterface(v1([{ url: "https://a", protocolBinding: "GRPC", protocolVersion: "1.0" }])),
    ).toThrow(/no JSONRPC or HTTP\+JSON/);
    expect(() =>
      chooseInterface(v1([{ url: "/relative", protocolBinding: "JSONRPC", protocolVersion: "1.0" }])),
    ).toThrow(/http\(s\)/);
  });

  it("tries the 0.2 agent.json path after agent-card.json, and the well-known paths under a base URL", () => {
    expect(cardUrls("https://a.example/.well-known/agent-card.json")).toEqual([
      "https://a.example/.well-known/agent-card.json",
      "https://a.example/.well-known/agent.json",
    ]);
    expect(cardUrls("https://a.example/agents/x")).toEqual([
      "https://a.example/agents/x/.well-known/agent-card.json",
      "https://a.example/agents/x/.well-known/agent.json",
    ]);
  });

  it("falls back to agent.json when agent-card.json is not found", async () => {
    const served = cardV1();
    const fetchImpl: typeof fetch = async (input) =>
      String(input).endsWith("agent.json") ? Response.json(served) : new Response("", { status: 404 });
    const card = await resolveCard(`${PEER_BASE}/.well-known/agent-card.json`, {
      fetch: fetchImpl,
      cache: memoryCardCache(),
      now: () => 0,
    });
    expect(card.name).toBe("peer");
  });

  it.each([
    [null, 300_000],
    ["max-age=60", 60_000],
    ["public, s-maxage=30, max-age=600", 30_000],
    ["no-store", 0],
    ["max-age=abc", 300_000],
  ])("Cache-Control %s keeps a card %i ms", (header, ms) => {
    expect(cardTtlMs(header)).toBe(ms);
  });

  it("serves a card from KV until its Cache-Control lifetime ends, then fetches it again", async () => {
    const peer = fakePeer({ cacheControl: "max-age=120", replies: [] });
    const kv = memoryKv();
    const deps = { fetch: peer.fetch, cache: kvCardCache(kv), now: () => now };
    let now = 1_000_000;
    const url = `${PEER_BASE}/.well-known/agent-card.json`;
    await resolveCard(url, deps);
    await resolveCard(url, deps);
    expect(peer.urls).toHaveLength(1);
    expect(kv.ttls).toEqual([120]);
    now += 121_000;
    await resolveCard(url, deps);
    expect(peer.urls).toHaveLength(2);
  });

  it("stores short lifetimes with KV's 60-second minimum TTL and still expires them on time", async () => {
    const peer = fakePeer({ cacheControl: "max-age=5", replies: [] });
    const kv = memoryKv();
    let now = 0;
    const deps = { fetch: peer.fetch, cache: kvCardCache(kv), now: () => now };
    const url = `${PEER_BASE}/.well-known/agent-card.json`;
    await resolveCard(url, deps);
    expect(kv.ttls).toEqual([60]);
    now = 6_000;
    await resolveCard(url, deps);
    expect(peer.urls).toHaveLength(2);
  });

  it("A14: a card URL answering 404 gives one A2A_CARD_UNAVAILABLE event and no request", async () => {
    const h = await remoteTree({ cardStatus: 404, replies: [] }, {}, [
      { calls: [{ name: "transfer_to_agent", args: { agent_name: "remote" } }] },
      { text: "root" },
    ]);
    const events = (await h.turn("go")).filter((e: Event) => e.author === "remote");
    expect(events).toHaveLength(1);
    expect(events[0]?.errorCode).toBe("A2A_CARD_UNAVAILABLE");
    expect(events[0]?.errorMessage).toMatch(/^Failed to initialize remote A2A agent: .*404/);
    expect(events[0]?.content).toBeUndefined();
    expect(h.peer.calls).toEqual([]);
  });

  it("an invalid card gives A2A_CARD_UNAVAILABLE naming the problem", async () => {
    const h = await remoteTree({ card: { name: "x" }, replies: [] }, {}, [
      { calls: [{ name: "transfer_to_agent", args: { agent_name: "remote" } }] },
      { text: "root" },
    ]);
    const [event] = (await h.turn("go")).filter((e: Event) => e.author === "remote");
    expect(event?.errorCode).toBe("A2A_CARD_UNAVAILABLE");
    expect(event?.errorMessage).toContain("not an A2A 0.3 or 1.0 card");
  });

  it("accepts the card as an object, with no fetch for it", async () => {
    const h = await remoteTree(
      { replies: [{ result: { message: { messageId: "m", role: "ROLE_AGENT", parts: [{ text: "hi" }] } } }] },
      { agentCard: cardV1() },
    );
    const events = (await h.turn("go")).filter((e: Event) => e.author === "remote");
    expect(events[0]?.content?.parts?.[0]?.text).toBe("hi");
    expect(h.peer.urls.every((u) => u.endsWith("/rpc"))).toBe(true);
  });

  it("rejects an empty card source when the agent is built", async () => {
    const { RemoteA2aAgent } = await import("../../../src/a2a/client/remote-a2a-agent.js");
    expect(() => new RemoteA2aAgent({ name: "r", agentCard: "" })).toThrow(TypeError);
  });
});
