import { describe, expect, it } from "vitest";
import type { EventPageRequest, SessionPageRequest } from "../../src/core/session-pages.js";
import type { SessionStore } from "../../src/core/session-store.js";
import type { StateMap } from "../../src/core/state.js";
import {
  type ContractContext,
  expectRefusal,
  type HarnessSetup,
  idsOf,
  makeEvent,
  useContract,
} from "./fixtures.js";

/** Every page of `userId`'s listing from `request` on, following the tokens: each page's session ids. */
async function walk(store: SessionStore, app: string, userId: string, request: SessionPageRequest) {
  const pages: string[][] = [];
  let next: SessionPageRequest | undefined = request;
  while (next) {
    const page = await store.listSessions(app, userId, next);
    pages.push(page.sessions.map((s) => s.id));
    next = page.nextPageToken === undefined ? undefined : { ...request, pageToken: page.nextPageToken };
    if (pages.length > 100) throw new Error("the walk does not end");
  }
  return { pages, ids: pages.flat() };
}

/** A session whose last update is `seconds` (its one seed event's timestamp). */
const sessionAt = (t: ContractContext, sessionId: string, seconds: number, state?: StateMap) =>
  t.store.createSession({
    ...t.key(sessionId),
    ...(state === undefined ? {} : { state }),
    events: [makeEvent({ timestamp: seconds })],
  });

const eventsOf = (store: SessionStore) => {
  const list = store.listEvents?.bind(store);
  if (!list) throw new Error("the store does not page events");
  return (key: Parameters<typeof list>[0], request: EventPageRequest) => list(key, request);
};

/** Listings in pages and the event log in pages (decision 046). */
export function pageCases(setup: HarnessSetup): void {
  describe("pages of sessions and events", () => {
    const t = useContract(setup);

    it("lists the most recently updated sessions first, a page at a time, and its tokens walk each session once", async () => {
      for (const i of [3, 0, 6, 1, 5, 2, 4]) await sessionAt(t, `s${i}`, 1000 + i);
      const { pages, ids } = await walk(t.store, t.app, "u1", { pageSize: 3 });
      expect(pages.map((page) => page.length)).toEqual([3, 3, 1]);
      expect(ids).toEqual(["s6", "s5", "s4", "s3", "s2", "s1", "s0"]);
    });

    it("lists the least recently updated first with order asc, and the order stays with the token", async () => {
      for (const i of [2, 0, 1, 3]) await sessionAt(t, `s${i}`, 1000 + i);
      const { pages } = await walk(t.store, t.app, "u1", { pageSize: 3, order: "asc" });
      expect(pages).toEqual([["s0", "s1", "s2"], ["s3"]]);
    });

    it("keeps a walk through the pages stable while sessions are added: every session listed once, none skipped", async () => {
      for (let i = 0; i < 6; i++) await sessionAt(t, `old${i}`, 1000 + i);
      const first = await t.store.listSessions(t.app, "u1", { pageSize: 2 });
      // Sessions added after the first page, newer than all: before the walk's position, never in it twice.
      for (let i = 0; i < 4; i++) await sessionAt(t, `new${i}`, 2000 + i);
      const rest = await walk(t.store, t.app, "u1", { pageSize: 2, pageToken: first.nextPageToken ?? "" });
      const ids = [...first.sessions.map((s) => s.id), ...rest.ids];
      expect(ids).toEqual(["old5", "old4", "old3", "old2", "old1", "old0"]);
      // Walked oldest first, the added ones follow the old ones, each once.
      const asc = await t.store.listSessions(t.app, "u1", { pageSize: 3, order: "asc" });
      await sessionAt(t, "newest", 3000);
      const after = await walk(t.store, t.app, "u1", { pageSize: 3, pageToken: asc.nextPageToken ?? "" });
      expect([...asc.sessions.map((s) => s.id), ...after.ids]).toEqual([
        "old0",
        "old1",
        "old2",
        "old3",
        "old4",
        "old5",
        "new0",
        "new1",
        "new2",
        "new3",
        "newest",
      ]);
    });

    it("lists a changed session first, with its new state and time", async () => {
      await sessionAt(t, "s1", 1000, { n: 1 });
      await sessionAt(t, "s2", 1001, { n: 1 });
      await t.store.appendEvent(
        t.key("s1"),
        makeEvent({ timestamp: 3000, stateDelta: { n: 2, "user:u": "x" } }),
      );
      const { sessions } = await t.store.listSessions(t.app, "u1");
      expect(sessions.map((s) => [s.id, s.lastUpdateTime, s.state])).toEqual([
        ["s1", 3000, { n: 2, "user:u": "x" }],
        ["s2", 1001, { n: 1, "user:u": "x" }],
      ]);
    });

    it("lists what a turn changed once the turn ended", async () => {
      const key = t.key("s1");
      await sessionAt(t, "s1", 1000, { step: 0 });
      await sessionAt(t, "s2", 1001);
      const { lease } = await t.store.beginTurn(key, makeEvent({ timestamp: 4000, text: "go" }));
      await t.store.appendEvent(
        key,
        makeEvent({ author: "agent", timestamp: 4001, stateDelta: { step: 1 } }),
        {
          lease,
        },
      );
      await t.store.endTurn(key, lease);
      const { sessions } = await t.store.listSessions(t.app, "u1");
      expect(sessions[0]).toMatchObject({ id: "s1", lastUpdateTime: 4001, state: { step: 1 }, events: [] });
    });

    it("lists 100 sessions a page by default and at most 1000 whatever the page size asked", async () => {
      for (let i = 0; i < 101; i++) await sessionAt(t, `s${i}`, 1000 + i);
      const first = await t.store.listSessions(t.app, "u1");
      expect(first.sessions).toHaveLength(100);
      expect(first.nextPageToken).toBeTypeOf("string");
      const last = await t.store.listSessions(t.app, "u1", { pageToken: first.nextPageToken ?? "" });
      expect(last.sessions.map((s) => s.id)).toEqual(["s0"]);
      expect(last.nextPageToken).toBeUndefined();
      const all = await t.store.listSessions(t.app, "u1", { pageSize: 1_000_000 });
      expect(all.sessions).toHaveLength(101);
      expect(all.nextPageToken).toBeUndefined();
    }, 60_000); // 101 sessions, each its own object: seconds on a loaded machine

    it("ends a page before the session whose state would take it past 1 MiB, listing one at least", async () => {
      const big = "x".repeat(400 * 1024);
      for (let i = 0; i < 3; i++) await sessionAt(t, `s${i}`, 1000 + i, { big });
      const { pages } = await walk(t.store, t.app, "u1", {});
      expect(pages).toEqual([["s2", "s1"], ["s0"]]);
      const huge = "y".repeat(1200 * 1024);
      await sessionAt(t, "huge", 5000, { huge });
      const first = await t.store.listSessions(t.app, "u1");
      expect(first.sessions.map((s) => s.id)).toEqual(["huge"]);
      expect(first.sessions[0]?.state.huge).toBe(huge);
    });

    it("refuses a page token it did not make with invalid_request", async () => {
      await sessionAt(t, "s1", 1000);
      for (const pageToken of ["not a token", "eyJ4IjoxfQ", "e30"])
        await expectRefusal(t.store.listSessions(t.app, "u1", { pageToken }), "invalid_request");
    });

    it("pages through a session's events oldest first", async () => {
      const seeds = Array.from({ length: 25 }, (_, i) => makeEvent({ text: `m${i}` }));
      await t.store.createSession({ ...t.key("s1"), events: seeds });
      const list = eventsOf(t.store);
      const first = await list(t.key("s1"), { pageSize: 10 });
      const second = await list(t.key("s1"), { pageSize: 10, pageToken: first.nextPageToken ?? "" });
      const third = await list(t.key("s1"), { pageSize: 10, pageToken: second.nextPageToken ?? "" });
      expect([first, second, third].map((page) => page.events.length)).toEqual([10, 10, 5]);
      expect(idsOf([...first.events, ...second.events, ...third.events])).toEqual(idsOf(seeds));
      expect(third.nextPageToken).toBeUndefined();
      // Events appended meanwhile follow on the last page's token.
      const later = makeEvent({ text: "later" });
      await t.store.appendEvent(t.key("s1"), later);
      const fourth = await list(t.key("s1"), { pageToken: second.nextPageToken ?? "" });
      expect(idsOf(fourth.events)).toEqual([...idsOf(third.events), later.id]);
      await expectRefusal(list(t.key("nope"), {}), "session_not_found");
    });
  });
}
