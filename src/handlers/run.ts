import { type Context, Hono } from "hono";
import type { Event } from "../core/event.js";
import type { RunRequest } from "../runner/runner.js";
import type { SessionStoreEnv } from "../session/do-store.js";
import { findApp } from "./app-lookup.js";
import { assertMayActAs, assertNoAppState, callerOf } from "./caller.js";
import { detachTurn } from "./detached-turn.js";
import { startObjectTurn } from "./object-turn.js";
import { readBody } from "./read-body.js";
import { type RunAgentRequest, RunAgentRequestSchema } from "./schemas.js";
import { sseResponse } from "./sse-response.js";
import { turnRunner } from "./turn-runner.js";
import type { HonoEnv } from "./types.js";
import { waitUntilOf } from "./wait-until.js";

/**
 * Starts the turn: 400/404/409 are thrown here, before any response is begun. On Workers the turn runs in
 * its session's Durable Object (decision 040), elsewhere detached from the request (`detachTurn`); either
 * way a client that goes away does not cut it short, nor does it keep the lease. Every HTTP way into a
 * turn (`/run`, `/run_sse`, `/mcp/:app`) starts here.
 */
export async function startTurn(c: Context<HonoEnv>, body: RunAgentRequest): Promise<AsyncIterable<Event>>;
/** `toEnd`: all the events at once, when the turn ended (`/run`); in the object, in one RPC answer. */
export async function startTurn(
  c: Context<HonoEnv>,
  body: RunAgentRequest,
  toEnd: true,
): Promise<AsyncIterable<Event> | Event[]>;
export async function startTurn(
  c: Context<HonoEnv>,
  body: RunAgentRequest,
  toEnd?: boolean,
): Promise<AsyncIterable<Event> | Event[]> {
  const caller = callerOf(c);
  assertMayActAs(caller, body.appName, body.userId);
  assertNoAppState(caller, body.stateDelta, "stateDelta");
  const { deps } = c.var;
  const app = findApp(deps.apps, body.appName);
  const run = runRequestOf(body);
  if (deps.turnHost) {
    // SAFETY: `turnHost` is set only by `createWorker`, whose env has the session bindings.
    const env = c.env as SessionStoreEnv & Record<string, unknown>;
    const inObject = await startObjectTurn(env, deps.turnHost, app.name, run, toEnd);
    if (inObject) return inObject;
  }
  const runner = turnRunner(deps, app, c.env ?? {}, (work) => afterResponse(c, work));
  return detachTurn(c, runner.start(run));
}

/** The turn `Runner.start` runs for a request body. */
const runRequestOf = (body: RunAgentRequest): Omit<RunRequest, "signal"> => ({
  userId: body.userId,
  sessionId: body.sessionId,
  newMessage: body.newMessage,
  streaming: body.streaming,
  ...(body.stateDelta ? { stateDelta: body.stateDelta } : {}),
  ...(body.customMetadata ? { customMetadata: body.customMetadata } : {}),
  ...(body.invocationId ? { invocationId: body.invocationId, resume: true } : {}),
});

/** Keeps `work` alive after the response (`ctx.waitUntil`); outside a Worker it just runs. */
const afterResponse = (c: Context<HonoEnv>, work: Promise<void>): void => waitUntilOf(c)?.(work);

/** `POST /run` (all events as one JSON array) and `POST /run_sse` (one `data:` frame per event). */
export const run = new Hono<HonoEnv>()
  .post("/run", async (c) => {
    const turn = await startTurn(c, await readBody(c, RunAgentRequestSchema), true);
    const events: Event[] = [];
    for await (const event of turn) events.push(event);
    return c.json(events);
  })
  .post("/run_sse", async (c) => {
    const body = await readBody(c, RunAgentRequestSchema);
    const turn = await startTurn(c, body);
    return sseResponse(c, turn, { functionCallEventId: body.functionCallEventId, errorFrames: true });
  });
