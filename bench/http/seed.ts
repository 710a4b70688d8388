/**
 * Bench-only seeding: a `SessionObject` that can also take a batch of events in one transaction, written
 * with the store's own SQL statements, and the `POST /bench/seed` route that grows a session with it.
 * Everything else of the object is Baton's, untouched.
 */
import { createEvent, type Event } from "../../src/core/event.js";
import { SessionObject } from "../../src/objects/session-object.js";
import { INSERT_EVENT, TOUCH_SESSION } from "../../src/session/session-sql.js";
import { sessionObjectName } from "../../src/storage/object-names.js";
import { type Remote, remote } from "../../src/storage/rpc-result.js";
import { AGENT_NAME, type BenchEnv, hasFields } from "./bench-env.js";

/** Baton's `SessionObject` plus `seed`; the bench wrangler.toml binds SESSIONS to it. */
export class SeedableSessionObject extends SessionObject {
  /** Appends `events` (no state deltas, no lease) in one transaction; returns how many were stored. */
  seed(events: Event[]): number {
    const sql = this.ctx.storage.sql;
    return this.ctx.storage.transactionSync(() => {
      let stored = 0;
      for (const e of events) if (INSERT_EVENT.first(sql, e.id, e.timestamp, JSON.stringify(e))) stored++;
      const last = events.at(-1);
      if (last) TOUCH_SESSION.run(sql, last.timestamp);
      // Written behind the object's cache: the next read loads the grown log from SQL.
      this.dropCache();
      return stored;
    });
  }
}

function seedable(env: BenchEnv, name: string): Remote<SeedableSessionObject> {
  // SAFETY: bench/http/wrangler.toml binds SESSIONS to the class worker.ts exports as SessionObject,
  // which is SeedableSessionObject; its stubs therefore have `seed`.
  const namespace = env.SESSIONS as unknown as DurableObjectNamespace<SeedableSessionObject>;
  return remote(namespace.getByName(name));
}

interface SeedRequest {
  appName: string;
  userId: string;
  sessionId: string;
  count: number;
}

const isSeedRequest = (v: unknown): v is SeedRequest =>
  hasFields<SeedRequest>(v, { appName: "string", userId: "string", sessionId: "string", count: "number" });

/** Events per `seed` call: well under the RPC message limit at ~400 bytes an event. */
const BATCH = 2_500;

/** Event i of a synthetic conversation, shaped like what a real turn stores (user text, then the answer). */
function syntheticEvent(i: number, atMs: number): Event {
  const turn = Math.floor(i / 2);
  const env = { ids: { uuid: () => crypto.randomUUID() }, clock: { now: () => atMs } };
  const invocationId = `e-seed-${turn}`;
  if (i % 2 === 0) {
    const text = `Question number ${turn}: what is the status of my order?`;
    return createEvent({ invocationId, author: "user", content: { role: "user", parts: [{ text }] } }, env);
  }
  return createEvent(
    {
      invocationId,
      author: AGENT_NAME,
      content: { role: "model", parts: [{ text: `Answer number ${turn}: it ships tomorrow.` }] },
      finishReason: "STOP",
      modelVersion: "bench",
      usageMetadata: { promptTokenCount: 12, candidatesTokenCount: 7, totalTokenCount: 19 },
    },
    env,
  );
}

/** `POST /bench/seed`: appends `count` synthetic events to an existing session, timestamps just before now. */
export async function seedSession(request: Request, env: BenchEnv): Promise<Response> {
  const body: unknown = await request.json();
  if (!isSeedRequest(body)) return Response.json({ detail: "bad seed request" }, { status: 400 });
  const session = seedable(env, sessionObjectName(body));
  const start = Date.now() - body.count;
  let appended = 0;
  for (let from = 0; from < body.count; from += BATCH) {
    const events: Event[] = [];
    for (let i = from; i < Math.min(body.count, from + BATCH); i++) events.push(syntheticEvent(i, start + i));
    appended += await session.seed(events);
  }
  return Response.json({ appended });
}
