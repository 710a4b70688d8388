import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Event } from "../../../src/core/event.js";
import type { Session } from "../../../src/core/session.js";
import { EVENT_PAGE_LIMITS } from "../../../src/core/session-pages.js";
import { DurableObjectSessionStore } from "../../../src/session/do-store.js";
import { idsOf, makeEvent } from "../../contract/fixtures.js";
import { helloWorker as setup } from "../support/hello-worker.js";
import { type Call, expectJson } from "../support/http.js";

/** Follows the `Link: <…>; rel="next"` headers from `path`; each page's body and `Next-Page-Token`. */
async function follow<T>(call: Call, path: string) {
  const pages: { body: T[]; token: string | null }[] = [];
  let next: string | null = path;
  while (next !== null) {
    const response = await call(next);
    expect(response.status).toBe(200);
    pages.push({ body: await response.json<T[]>(), token: response.headers.get("Next-Page-Token") });
    next = response.headers.get("Link")?.match(/^<([^>]+)>; rel="next"$/)?.[1] ?? null;
    if (pages.length > 50) throw new Error("the pages do not end");
  }
  return pages;
}

describe("ADK HTTP API: listings in pages and bounded reads (decision 046)", () => {
  it("answers a listing's page as the plain array, the next page's token and link in headers", async () => {
    const { call, sessions, app, user } = setup();
    for (let i = 0; i < 5; i++) await sessions.create({ sessionId: `s${i}` });
    const pages = await follow<Session>(call, `/apps/${app}/users/${user}/sessions?pageSize=2`);
    expect(pages.map((page) => page.body.map((s) => s.id))).toEqual([["s4", "s3"], ["s2", "s1"], ["s0"]]);
    expect(pages.map((page) => page.token === null)).toEqual([false, false, true]);
    // snake_case and ADK TS's `limit` name the page size too; `order=asc` lists the oldest first.
    const asc = await call(`/apps/${app}/users/${user}/sessions?limit=3&order=asc`);
    expect((await asc.json<Session[]>()).map((s) => s.id)).toEqual(["s0", "s1", "s2"]);
    const snake = await call(`/apps/${app}/users/${user}/sessions?page_size=4`);
    expect(await snake.json<Session[]>()).toHaveLength(4);
  });

  it("answers a listing without parameters with its first page, as ADK's dev UI asks for it", async () => {
    const { call, sessions, app, user } = setup();
    await sessions.create({ sessionId: "only", state: { a: 1 } });
    const response = await call(`/apps/${app}/users/${user}/sessions`);
    expect(response.headers.get("Next-Page-Token")).toBeNull();
    expect(await response.json()).toEqual([
      expect.objectContaining({ id: "only", state: { a: 1 }, events: [], appName: app, userId: user }),
    ]);
  });

  it("refuses a page size that is not a positive integer, an order it does not know and a token it did not make", async () => {
    const { call, app, user } = setup();
    for (const query of ["pageSize=0", "pageSize=two", "limit=-1", "order=newest", "pageToken=bad%20token"]) {
      const refused = await expectJson<{ detail: string }>(
        call(`/apps/${app}/users/${user}/sessions?${query}`),
        400,
      );
      expect(refused.detail).toMatch(/query parameter|page token/);
    }
  });

  it("reads the window a GET names with ADK's numRecentEvents and afterTimestamp", async () => {
    const { call, app, user } = setup();
    const store = new DurableObjectSessionStore(env);
    const events = Array.from({ length: 6 }, (_, i) => makeEvent({ timestamp: 100 + i, text: `m${i}` }));
    await store.createSession({ appName: app, userId: user, sessionId: "w", events });
    const read = async (query: string) =>
      idsOf((await expectJson<Session>(call(`/apps/${app}/users/${user}/sessions/w?${query}`), 200)).events);
    expect(await read("numRecentEvents=2")).toEqual(idsOf(events.slice(-2)));
    expect(await read("num_recent_events=0")).toEqual([]);
    expect(await read("afterTimestamp=103")).toEqual(idsOf(events.slice(3)));
    expect(await read("after_timestamp=101.5&numRecentEvents=1")).toEqual(idsOf(events.slice(-1)));
    await expectJson(call(`/apps/${app}/users/${user}/sessions/w?afterTimestamp=soon`), 400);
  });

  it("answers a GET of a longer session with its newest events up to the bound, and pages the whole log at …/events", async () => {
    const { call, app, user } = setup();
    const store = new DurableObjectSessionStore(env);
    const max = EVENT_PAGE_LIMITS.maxPerRead;
    const events = Array.from({ length: max + 5 }, (_, i) => makeEvent({ text: `m${i}` }));
    await store.createSession({ appName: app, userId: user, sessionId: "long", events });

    const plain = await call(`/apps/${app}/users/${user}/sessions/long`);
    expect(plain.headers.get("Events-Truncated")).toBe("true");
    const session = await plain.json<Session>();
    expect(session.events).toHaveLength(max);
    expect(session.events[0]?.id).toBe(events[5]?.id);
    const small = await call(`/apps/${app}/users/${user}/sessions/long?numRecentEvents=10`);
    expect(small.headers.get("Events-Truncated")).toBeNull();

    const pages = await follow<Event>(call, `/apps/${app}/users/${user}/sessions/long/events?pageSize=4000`);
    expect(pages.map((page) => page.body.length)).toEqual([4000, 4000, max + 5 - 8000]);
    expect(pages.flatMap((page) => idsOf(page.body))).toEqual(idsOf(events));
    await expectJson(call(`/apps/${app}/users/${user}/sessions/nope/events`), 404);
  });
});
