import { describe, expect, it } from "vitest";
import type { Event } from "../../../src/core/event.js";
import type { Session } from "../../../src/core/session.js";
import {
  type EmbeddingModel,
  type MemoryIndex,
  VectorizeMemoryService,
  vectorizeMemory,
} from "../../../src/memory/vectorize-memory.js";

/*
 * Vectorize and Workers AI have no local simulation (Miniflare runs neither), so this adapter is checked
 * against fakes that keep their documented contracts: embeddings as `{shape, data}`, vectors per namespace,
 * cosine scores, `topK`, metadata filters, upsert by id. The default store is tested for real in workerd.
 */

const DIMENSIONS = 32;

/** Bag-of-words embeddings hashed into 32 dimensions, normalized: texts sharing words score higher. */
function fakeAi(): EmbeddingModel & { calls: string[][] } {
  const calls: string[][] = [];
  return {
    calls,
    async run(_model, { text }) {
      calls.push(text);
      const data = text.map((t) => {
        const v = new Array<number>(DIMENSIONS).fill(0);
        for (const word of t.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
          const h = [...word].reduce((sum, ch) => (sum * 31 + ch.charCodeAt(0)) % 9973, 7);
          v[h % DIMENSIONS] = (v[h % DIMENSIONS] ?? 0) + 1;
        }
        const norm = Math.hypot(...v) || 1;
        return v.map((x) => x / norm);
      });
      return { shape: [text.length, DIMENSIONS], data };
    },
  };
}

type Stored = { id: string; values: number[]; namespace: string; metadata: Record<string, unknown> };

function fakeIndex(): MemoryIndex & { vectors: Map<string, Stored> } {
  const vectors = new Map<string, Stored>();
  const cosine = (a: number[], b: number[]) => a.reduce((sum, x, i) => sum + x * (b[i] ?? 0), 0);
  const index = {
    vectors,
    async upsert(
      upserts: { id: string; values: number[]; namespace: string; metadata: Record<string, unknown> }[],
    ) {
      for (const v of upserts) vectors.set(`${v.namespace}/${v.id}`, { ...v, values: [...v.values] });
      return { mutationId: "m" };
    },
    async query(
      vector: number[],
      options: {
        topK?: number;
        namespace?: string;
        filter?: Record<string, unknown>;
        returnMetadata?: unknown;
      },
    ) {
      const matches = [...vectors.values()]
        .filter((v) => v.namespace === options.namespace)
        .filter((v) => Object.entries(options.filter ?? {}).every(([k, want]) => v.metadata[k] === want))
        .map((v) => ({
          id: v.id,
          score: cosine(vector, v.values),
          ...(options.returnMetadata ? { metadata: v.metadata } : {}),
        }))
        .sort((a, b) => b.score - a.score)
        .slice(0, options.topK ?? 5);
      return { matches, count: matches.length };
    },
    async deleteByIds(ids: string[]) {
      for (const [key, v] of vectors) if (ids.includes(v.id)) vectors.delete(key);
      return { mutationId: "m" };
    },
  };
  // SAFETY: the fake implements the three methods the service calls, with Vectorize's shapes.
  return index as unknown as MemoryIndex & { vectors: Map<string, Stored> };
}

const event = (id: string, text: string): Event => ({
  id,
  invocationId: "e-1",
  author: "user",
  timestamp: 1_767_225_600,
  content: { role: "user", parts: [{ text }] },
  actions: { stateDelta: {}, artifactDelta: {}, requestedAuthConfigs: {}, requestedToolConfirmations: {} },
});

const session = (userId: string, id: string, texts: string[]): Session => ({
  id,
  appName: "app",
  userId,
  state: {},
  events: texts.map((t, i) => event(`${id}-e${i}`, t)),
  lastUpdateTime: 0,
});

describe("VectorizeMemoryService (against fakes of Vectorize and Workers AI)", () => {
  it("embeds each remembered event, keeps each user in a namespace of their own, and finds by similarity", async () => {
    const [index, ai] = [fakeIndex(), fakeAi()];
    const memory = new VectorizeMemoryService({ index, ai, minScore: 0.6 });
    await memory.addSessionToMemory(session("alice", "s1", ["my cat is called Miso", "the weather is grey"]));
    await memory.addSessionToMemory(session("bob", "s1", ["my cat is called Pixel"]));
    expect(ai.calls[0]).toEqual(["my cat is called Miso", "the weather is grey"]);
    const stored = [...index.vectors.values()];
    expect(new Set(stored.map((v) => v.namespace)).size).toBe(2);
    for (const v of stored) expect([v.id.length, v.namespace.length]).toEqual([64, 64]);

    const found = await memory.searchMemory({
      appName: "app",
      userId: "alice",
      query: "what is my cat called",
    });
    expect(found.memories.map((m) => m.content.parts?.[0]?.text)).toEqual(["my cat is called Miso"]);
    expect(found.memories[0]).toMatchObject({
      id: "s1/s1-e0",
      author: "user",
      timestamp: "2026-01-01T00:00:00.000Z",
    });
    const carol = await memory.searchMemory({
      appName: "app",
      userId: "carol",
      query: "what is my cat called",
    });
    expect(carol.memories).toEqual([]);
  });

  it("adds a session again without duplicates, and deletes one session's vectors or all of a user's", async () => {
    const index = fakeIndex();
    const memory = new VectorizeMemoryService({ index, ai: fakeAi(), minScore: 0.1 });
    await memory.addSessionToMemory(session("alice", "s1", ["teal bicycle"]));
    await memory.addSessionToMemory(session("alice", "s1", ["teal bicycle"]));
    await memory.addSessionToMemory(session("alice", "s2", ["teal door"]));
    await memory.addMemories({
      appName: "app",
      userId: "alice",
      memories: [{ content: { parts: [{ text: "teal scarf" }] } }],
    });
    expect(index.vectors.size).toBe(3);
    await memory.deleteMemories({ appName: "app", userId: "alice", sessionId: "s1" });
    const left = await memory.searchMemory({ appName: "app", userId: "alice", query: "teal" });
    expect(left.memories.map((m) => m.content.parts?.[0]?.text).sort()).toEqual(["teal door", "teal scarf"]);
    await memory.deleteMemories({ appName: "app", userId: "alice" });
    expect(index.vectors.size).toBe(0);
  });

  it("names the binding that is missing, and refuses an AI answer that holds no embeddings", async () => {
    const make = vectorizeMemory({ index: "MEMORY_INDEX", ai: "AI" });
    expect(() => make({ AI: fakeAi() })).toThrow(/No Vectorize index is bound as MEMORY_INDEX/);
    expect(() => make({ MEMORY_INDEX: fakeIndex() })).toThrow(/No Workers AI binding is bound as AI/);
    expect(make({ MEMORY_INDEX: fakeIndex(), AI: fakeAi() })).toBeInstanceOf(VectorizeMemoryService);
    const broken = new VectorizeMemoryService({
      index: fakeIndex(),
      ai: { run: async () => ({ error: "quota" }) },
    });
    await expect(broken.searchMemory({ appName: "app", userId: "u", query: "x" })).rejects.toThrow(
      /answered no embeddings/,
    );
  });
});
