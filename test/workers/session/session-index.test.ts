import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { SessionKey } from "../../../src/core/session.js";
import { USER_SQL_SCHEMA } from "../../../src/objects/user-object.js";
import { DurableObjectSessionStore, type SessionStoreEnv } from "../../../src/session/do-store.js";
import { LIVE_READS_PER_PAGE } from "../../../src/session/user-index.js";
import { userObjectName } from "../../../src/storage/object-names.js";
import { migrate } from "../../../src/storage/sql.js";
import { freshApp, makeEvent } from "../../contract/fixtures.js";
import { sessionStub } from "../support/turn-control.js";

/** A store over the real objects that counts how often it addresses a session's object. */
function countingStore() {
  const reads = { sessions: 0 };
  const spied: SessionStoreEnv = {
    ...env,
    SESSIONS: new Proxy(env.SESSIONS, {
      get(target, prop) {
        if (prop !== "getByName") return Reflect.get(target, prop);
        return (name: string) => {
          reads.sessions++;
          return target.getByName(name);
        };
      },
    }),
  };
  return { store: new DurableObjectSessionStore(spied), reads };
}

const userStub = (app: string, user = "u1") => env.USERS.getByName(userObjectName(app, user));

interface Row {
  session_id: string;
  last_update_time: number;
  state: string | null;
  mark: number;
  indexed_mark: number;
}

/** The user's index rows, by session id, as stored. */
const rowsOf = (app: string) =>
  runInDurableObject(userStub(app), (_instance, state) => {
    const rows = state.storage.sql
      .exec("SELECT session_id, last_update_time, state, mark, indexed_mark FROM sessions")
      .toArray();
    // SAFETY: the columns selected above, as the index schema types them.
    return Object.fromEntries((rows as unknown as Row[]).map((row) => [row.session_id, row]));
  });

const keyOf = (app: string, sessionId: string): SessionKey => ({ appName: app, userId: "u1", sessionId });

describe("the user's session index (decision 046)", () => {
  it("lists a session whose change committed without its index write from the session, and repairs its row", async () => {
    const { store, reads } = countingStore();
    const app = freshApp();
    await store.createSession({
      ...keyOf(app, "s1"),
      state: { n: 1 },
      events: [makeEvent({ timestamp: 1000 })],
    });
    await store.createSession({ ...keyOf(app, "s2"), events: [makeEvent({ timestamp: 2000 })] });
    // A change as a store makes it, cut short after the session's commit: marked, stored, never indexed.
    await userStub(app).markSession("s1");
    const change = makeEvent({ timestamp: 3000, stateDelta: { n: 2 } });
    await sessionStub(keyOf(app, "s1")).append({ event: change, leaseTtlMs: 60_000 });

    reads.sessions = 0;
    const { sessions } = await store.listSessions(app, "u1");
    expect(sessions.map((s) => [s.id, s.lastUpdateTime, s.state])).toEqual([
      ["s1", 3000, { n: 2 }],
      ["s2", 2000, {}],
    ]);
    expect(reads.sessions).toBe(1);
    const row = (await rowsOf(app)).s1;
    expect(row).toMatchObject({ last_update_time: 3000, state: '{"n":2}' });
    expect(row?.indexed_mark).toBe(row?.mark);

    // Repaired, the row answers alone.
    reads.sessions = 0;
    const again = await store.listSessions(app, "u1");
    expect(again.sessions.map((s) => s.id)).toEqual(["s1", "s2"]);
    expect(reads.sessions).toBe(0);
  });

  it("lists a session whose turn runs as the session holds it, and keeps its row marked until the turn ends", async () => {
    const { store, reads } = countingStore();
    const app = freshApp();
    const key = keyOf(app, "s1");
    await store.createSession({ ...key, state: { step: 0 } });
    const { lease } = await store.beginTurn(key, makeEvent({ text: "go" }));
    await store.appendEvent(key, makeEvent({ author: "agent", stateDelta: { step: 1 } }), { lease });

    const during = await store.listSessions(app, "u1");
    expect(during.sessions[0]?.state).toEqual({ step: 1 });
    const marked = (await rowsOf(app)).s1;
    expect(marked?.indexed_mark).not.toBe(marked?.mark);

    await store.endTurn(key, lease);
    const ended = (await rowsOf(app)).s1;
    expect(ended?.indexed_mark).toBe(ended?.mark);
    expect(ended?.state).toBe('{"step":1}');
    reads.sessions = 0;
    expect((await store.listSessions(app, "u1")).sessions[0]?.state).toEqual({ step: 1 });
    expect(reads.sessions).toBe(0);
  });

  it("leaves a deleted session out of listings and out of the index", async () => {
    const { store } = countingStore();
    const app = freshApp();
    await store.createSession(keyOf(app, "s1"));
    await store.createSession(keyOf(app, "s2"));
    await store.deleteSession(keyOf(app, "s1"));
    expect((await store.listSessions(app, "u1")).sessions.map((s) => s.id)).toEqual(["s2"]);
    expect(Object.keys(await rowsOf(app))).toEqual(["s2"]);
  });

  it("drops a row a late write put back after its session was deleted, without listing it", async () => {
    const { store } = countingStore();
    const app = freshApp();
    const key = keyOf(app, "s1");
    await store.createSession({ ...key, state: { old: true } });
    // A turn's end that read the session just before the delete, and wrote its row just after.
    const entry = await sessionStub(key).indexEntry();
    await store.deleteSession(key);
    await userStub(app).writeSession("s1", { lastUpdateTime: 1, stateJson: entry?.stateJson ?? "{}" }, null);
    expect(Object.keys(await rowsOf(app))).toEqual(["s1"]);

    expect((await store.listSessions(app, "u1")).sessions).toEqual([]);
    expect(await rowsOf(app)).toEqual({});
  });

  it("drops the row of a session whose creation never reached its object", async () => {
    const { store } = countingStore();
    const app = freshApp();
    await store.createSession(keyOf(app, "s1"));
    await userStub(app).registerSession("ghost", 5000);
    expect((await store.listSessions(app, "u1")).sessions.map((s) => s.id)).toEqual(["s1"]);
    expect(Object.keys(await rowsOf(app))).toEqual(["s1"]);
  });

  it("lists sessions indexed before listings kept their rows (ids only), reading at most 10 sessions a page", async () => {
    const { store, reads } = countingStore();
    const app = freshApp();
    const count = LIVE_READS_PER_PAGE + 3;
    const ids = Array.from({ length: count }, (_, i) => `s${i}`);
    for (const [i, id] of ids.entries())
      await sessionStub(keyOf(app, id)).create(keyOf(app, id), { n: i }, [
        makeEvent({ timestamp: 1000 + i }),
      ]);
    // The user object as schema step 2 left it: a row of ids only per session (and none of the later steps'
    // tables), then migrated as it wakes.
    await runInDurableObject(userStub(app), (_instance, state) => {
      const sql = state.storage.sql;
      sql.exec("DROP TABLE artifact_versions");
      sql.exec("DROP TABLE artifact_scopes");
      sql.exec("DROP INDEX sessions_by_update");
      for (const column of ["last_update_time", "state", "mark", "indexed_mark"])
        sql.exec(`ALTER TABLE sessions DROP COLUMN ${column}`);
      sql.exec("UPDATE schema_version SET version = 2");
      for (const id of ids) sql.exec("INSERT INTO sessions (session_id) VALUES (?)", id);
      migrate(state.storage, USER_SQL_SCHEMA);
    });

    reads.sessions = 0;
    const first = await store.listSessions(app, "u1");
    expect(first.sessions).toHaveLength(LIVE_READS_PER_PAGE);
    expect(reads.sessions).toBe(LIVE_READS_PER_PAGE);
    const second = await store.listSessions(app, "u1", { pageToken: first.nextPageToken ?? "" });
    expect(second.nextPageToken).toBeUndefined();
    const listed = [...first.sessions, ...second.sessions];
    expect(listed.map((s) => s.id).sort()).toEqual([...ids].sort());
    for (const session of listed) expect(session.state).toEqual({ n: Number(session.id.slice(1)) });

    // Every row repaired: one page in update order, no session read.
    reads.sessions = 0;
    const after = await store.listSessions(app, "u1");
    expect(after.sessions.map((s) => s.id)).toEqual([...ids].reverse());
    expect(after.sessions.map((s) => s.lastUpdateTime)).toEqual(ids.map((_, i) => 1000 + i).reverse());
    expect(reads.sessions).toBe(0);
  });
});
