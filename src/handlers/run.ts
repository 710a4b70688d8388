import { type Context, Hono } from "hono";
import type { Event } from "../core/event.js";
import type { App } from "../runner/app.js";
import type { RunRequest } from "../runner/runner.js";
import type { SessionStoreEnv } from "../session/do-store.js";
import { findApp } from "./app-lookup.js";
import { assertMayActAs, assertNoAppState, callerOf } from "./caller.js";
import { detachTurn } from "./detached-turn.js";
import { startObjectSse, startObjectTurn } from "./object-turn.js";
import { readBody } from "./read-body.js";
import { type RunAgentRequest, RunAgentRequestSchema } from "./schemas.js";
import { sseBody, sseResponse } from "./sse-response.js";
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
  const { app, run, objects } = admitted(c, body);
  if (objects) {
    const inObject = await startObjectTurn(objects.env, objects.host, app.name, run, toEnd);
    if (inObject) return inObject;
  }
  return runHere(c, app, run);
}

/**
 * `/run_sse`'s turn: in the session object, its SSE frames as the object made them (bytes to pass on);
 * elsewhere its events, to frame here.
 */
async function startSseTurn(
  c: Context<HonoEnv>,
  body: RunAgentRequest,
): Promise<ReadableStream<Uint8Array> | AsyncIterable<Event>> {
  const { app, run, objects } = admitted(c, body);
  if (objects) {
    const frames = await startObjectSse(objects.env, objects.host, app.name, run, body.functionCallEventId);
    if (frames) return frames;
  }
  return runHere(c, app, run);
}

/** The caller's checks (403s) and the app (404), before anything runs; the session objects when on Workers. */
function admitted(c: Context<HonoEnv>, body: RunAgentRequest) {
  const caller = callerOf(c);
  assertMayActAs(caller, body.appName, body.userId);
  assertNoAppState(caller, body.stateDelta, "stateDelta");
  const { deps } = c.var;
  const app = findApp(deps.apps, body.appName);
  const run = runRequestOf(body);
  const host = deps.turnHost;
  // SAFETY: `turnHost` is set only by `createWorker`, whose env has the session bindings.
  const objects = host ? { env: c.env as SessionStoreEnv & Record<string, unknown>, host } : undefined;
  return { app, run, objects };
}

/** The turn run in this Worker (or Node), detached from the request. */
function runHere(
  c: Context<HonoEnv>,
  app: App,
  run: Omit<RunRequest, "signal">,
): Promise<AsyncIterable<Event>> {
  const runner = turnRunner(c.var.deps, app, c.env ?? {}, (work) => afterResponse(c, work));
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
    const turn = await startSseTurn(c, body);
    if (turn instanceof ReadableStream) return sseBody(c, turn);
    return sseResponse(c, turn, { functionCallEventId: body.functionCallEventId, errorFrames: true });
  });
