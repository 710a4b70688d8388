import { describe, expect, it } from "vitest";
import type { Part } from "../../src/core/content.js";
import type { Event } from "../../src/core/event.js";
import type { MemoryService } from "../../src/core/memory.js";
import type { Session } from "../../src/core/session.js";

let apps = 0;
/** Each test works in an app of its own: the workerd objects are shared by every test of the run. */
const freshApp = () =>
  `memory-${Date.now().toString(36)}-${++apps}-${Math.random().toString(36).slice(2, 8)}`;

const ACTIONS = {
  stateDelta: {},
  artifactDelta: {},
  requestedAuthConfigs: {},
  requestedToolConfirmations: {},
};

const event = (id: string, author: string, parts: Part[], timestamp = 1_767_225_600.5): Event => ({
  id,
  invocationId: "e-1",
  author,
  timestamp,
  content: { role: author === "user" ? "user" : "model", parts },
  actions: ACTIONS,
});

const session = (appName: string, userId: string, id: string, events: Event[]): Session => ({
  id,
  appName,
  userId,
  state: {},
  events,
  lastUpdateTime: 0,
});

const texts = (response: { memories: { content: { parts?: Part[] | undefined } }[] }) =>
  response.memories.map((m) => m.content.parts?.map((p) => p.text).join("\n"));

/**
 * The `MemoryService` contract: a user's sessions become searchable memories (ADK `add_session_to_memory`,
 * `search_memory`), entries can be added directly and deleted, and one user never finds another's.
 */
export function describeMemoryServiceContract(label: string, setup: () => MemoryService): void {
  describe(`MemoryService contract: ${label}`, () => {
    it("finds what a user said in an earlier session, as ADK's MemoryEntry, text parts only", async () => {
      const memory = setup();
      const app = freshApp();
      await memory.addSessionToMemory(
        session(app, "alice", "s1", [
          event("ev1", "user", [{ text: "My favourite colour is teal." }]),
          event("ev2", "assistant", [{ text: "thinking", thought: true }, { text: "Teal it is!" }]),
          event("ev3", "assistant", [{ functionCall: { name: "remember", args: { colour: "teal" } } }]),
          event("ev4", "user", [{ text: "I live in Lisbon." }]),
        ]),
      );
      const found = await memory.searchMemory({
        appName: app,
        userId: "alice",
        query: "What is my favourite colour?",
      });
      expect(found.memories).toEqual([
        {
          id: "s1/ev1",
          content: { role: "user", parts: [{ text: "My favourite colour is teal." }] },
          author: "user",
          timestamp: "2026-01-01T00:00:00.500Z",
        },
      ]);
      const teal = await memory.searchMemory({ appName: app, userId: "alice", query: "teal" });
      expect(texts(teal).sort()).toEqual(["My favourite colour is teal.", "Teal it is!"]);
      expect(teal.memories.find((m) => m.author === "assistant")?.content.parts).toEqual([
        { text: "Teal it is!" },
      ]);
    });

    it("never answers one user's search with another user's memories, nor another app's", async () => {
      const memory = setup();
      const app = freshApp();
      await memory.addSessionToMemory(
        session(app, "alice", "s1", [event("a", "user", [{ text: "secret plan zebra" }])]),
      );
      await memory.addSessionToMemory(
        session(`${app}-b`, "bob", "s1", [event("b", "user", [{ text: "zebra too" }])]),
      );
      expect((await memory.searchMemory({ appName: app, userId: "bob", query: "zebra" })).memories).toEqual(
        [],
      );
      expect(
        (await memory.searchMemory({ appName: `${app}-b`, userId: "alice", query: "zebra" })).memories,
      ).toEqual([]);
      expect(texts(await memory.searchMemory({ appName: app, userId: "alice", query: "zebra" }))).toEqual([
        "secret plan zebra",
      ]);
    });

    it("adds a session once however often it is added, and its new events when it grew", async () => {
      const memory = setup();
      const app = freshApp();
      const first = [event("e1", "user", [{ text: "orange juice please" }])];
      await memory.addSessionToMemory(session(app, "u", "s1", first));
      await memory.addSessionToMemory(session(app, "u", "s1", first));
      await memory.addSessionToMemory(
        session(app, "u", "s1", [...first, event("e2", "user", [{ text: "more orange" }])]),
      );
      expect(texts(await memory.searchMemory({ appName: app, userId: "u", query: "orange" })).sort()).toEqual(
        ["more orange", "orange juice please"],
      );
    });

    it("ranks a memory sharing more of the query's terms first, keeps to the limit, ignores stop words", async () => {
      const memory = setup();
      const app = freshApp();
      await memory.addSessionToMemory(
        session(app, "u", "s1", [
          event("e1", "user", [{ text: "the bicycle is broken" }]),
          event("e2", "user", [{ text: "my bicycle is teal" }]),
          event("e3", "user", [{ text: "a teal door" }]),
        ]),
      );
      const both = await memory.searchMemory({ appName: app, userId: "u", query: "teal bicycle" });
      expect(texts(both)[0]).toBe("my bicycle is teal");
      expect(both.memories).toHaveLength(3);
      expect(
        (await memory.searchMemory({ appName: app, userId: "u", query: "teal bicycle", limit: 1 })).memories,
      ).toHaveLength(1);
      // Only stop words, or punctuation that FTS5 would read as syntax: no terms, no memories, no error.
      expect(
        (await memory.searchMemory({ appName: app, userId: "u", query: "what is the" })).memories,
      ).toEqual([]);
      expect((await memory.searchMemory({ appName: app, userId: "u", query: '"* OR (' })).memories).toEqual(
        [],
      );
      expect(
        (await memory.searchMemory({ appName: app, userId: "u", query: 'NEAR("teal" door)' })).memories,
      ).toHaveLength(2);
    });

    it("adds entries directly, keeping their id, and deletes a session's memories or all of a user's", async () => {
      const memory = setup();
      const app = freshApp();
      await memory.addMemories({
        appName: app,
        userId: "u",
        memories: [
          {
            id: "pref-1",
            content: { parts: [{ text: "prefers window seats" }] },
            customMetadata: { source: "crm" },
          },
          { content: { parts: [{ text: "allergic to peanuts" }] } },
        ],
      });
      await memory.addSessionToMemory(
        session(app, "u", "s1", [event("e1", "user", [{ text: "window cleaning tomorrow" }])]),
      );
      const window = await memory.searchMemory({ appName: app, userId: "u", query: "window" });
      expect(window.memories.find((m) => m.id === "pref-1")).toEqual({
        id: "pref-1",
        content: { parts: [{ text: "prefers window seats" }] },
        customMetadata: { source: "crm" },
      });
      const peanuts = await memory.searchMemory({ appName: app, userId: "u", query: "peanuts" });
      expect(peanuts.memories[0]?.id).toEqual(expect.any(String));

      await memory.deleteMemories({ appName: app, userId: "u", sessionId: "s1" });
      expect(texts(await memory.searchMemory({ appName: app, userId: "u", query: "window" }))).toEqual([
        "prefers window seats",
      ]);
      await memory.deleteMemories({ appName: app, userId: "u" });
      expect(
        (await memory.searchMemory({ appName: app, userId: "u", query: "window peanuts" })).memories,
      ).toEqual([]);
    });
  });
}
