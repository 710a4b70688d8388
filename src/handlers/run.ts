import { type Context, Hono } from "hono";
import { type SSEStreamingApi, streamSSE } from "hono/streaming";
import { BatonError } from "../core/errors.js";
import type { Event } from "../core/event.js";
import type { RunRequest } from "../runner/runner.js";
import type { SessionStoreEnv } from "../session/do-store.js";
import { findApp } from "./app-lookup.js";
import { assertMayActAs, assertNoAppState, callerOf } from "./caller.js";
import { detachTurn } from "./detached-turn.js";
import { startObjectTurn } from "./object-turn.js";
import { readBody } from "./read-body.js";
import { type RunAgentRequest, RunAgentRequestSchema } from "./schemas.js";
import { turnRunner } from "./turn-runner.js";
import type { HonoEnv } from "./types.js";

/**
 * Starts the turn: 400/404/409 are thrown here, before any response is begun. On Workers the turn runs in
 * its session's Durable Object (decision 040), elsewhere detached from the request (`detachTurn`); either
 * way a client that goes away does not cut it short, nor does it keep the lease. Every HTTP way into a
 * turn (`/run`, `/run_sse`, `/mcp/:app`) starts here.
 */
export async function startTurn(c: Context<HonoEnv>, body: RunAgentRequest): Promise<AsyncIterable<Event>> {
  const caller = callerOf(c);
  assertMayActAs(caller, body.appName, body.userId);
  assertNoAppState(caller, body.stateDelta, "stateDelta");
  const { deps } = c.var;
  const app = findApp(deps.apps, body.appName);
  const run = runRequestOf(body);
  if (deps.turnHost) {
    // SAFETY: `turnHost` is set only by `createWorker`, whose env has the session bindings.
    const env = c.env as SessionStoreEnv & Record<string, unknown>;
    const inObject = await startObjectTurn(env, deps.turnHost, app.name, run);
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
function afterResponse(c: Context<HonoEnv>, work: Promise<void>): void {
  let ctx: { waitUntil(promise: Promise<unknown>): void } | undefined;
  try {
    ctx = c.executionCtx;
  } catch (_noContext) {
    ctx = undefined; // Hono outside a Worker (Node tests) has no execution context
  }
  ctx?.waitUntil(work);
}

/**
 * ADK's SSE frames of one event: an event with content parts and an `artifactDelta` goes out as two, a copy
 * with the delta cleared and then a copy without content, because ADK's dev UI renders artifacts from the
 * action-only event (ADK-SEMANTICS §6.1, H05). Only the original is stored. A request naming a
 * `functionCallEventId` gets it whole, as ADK does.
 */
export function sseFrames(event: Event, functionCallEventId: string | undefined): Event[] {
  const parts = event.content?.parts ?? [];
  if (functionCallEventId || Object.keys(event.actions.artifactDelta).length === 0 || parts.length === 0)
    return [event];
  const { content: _content, ...actionOnly } = event;
  return [{ ...event, actions: { ...event.actions, artifactDelta: {} } }, actionOnly];
}

/**
 * Writes one event's frames. A stored event's last frame carries its id as the SSE `id`, so a client whose
 * stream drops reconnects with `Last-Event-ID` (`GET …/invocations/:invocation/stream`) and gets what
 * followed it; partial events are never stored and carry none.
 */
export async function writeFrames(
  stream: SSEStreamingApi,
  event: Event,
  functionCallEventId: string | undefined,
): Promise<void> {
  const frames = sseFrames(event, functionCallEventId);
  for (const [i, frame] of frames.entries()) {
    const id = !event.partial && i === frames.length - 1 ? { id: event.id } : {};
    await stream.writeSSE({ data: JSON.stringify(frame), ...id });
  }
}

/** `POST /run` (all events as one JSON array) and `POST /run_sse` (one `data:` frame per event). */
export const run = new Hono<HonoEnv>()
  .post("/run", async (c) => {
    const turn = await startTurn(c, await readBody(c, RunAgentRequestSchema));
    const events: Event[] = [];
    for await (const event of turn) events.push(event);
    return c.json(events);
  })
  .post("/run_sse", async (c) => {
    const body = await readBody(c, RunAgentRequestSchema);
    const turn = await startTurn(c, body);
    return streamSSE(c, async (stream) => {
      try {
        for await (const event of turn) {
          if (stream.aborted) return; // The client left; the turn carries on without it.
          await writeFrames(stream, event, body.functionCallEventId);
        }
      } catch (error) {
        // Agent failures arrive as stored error events; this is for what could not be stored (ADK H04).
        // Caught here: streamSSE's own onError would add a non-JSON `event: error` frame after ours.
        const detail = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
        const details = error instanceof BatonError ? { error_details: { code: error.code } } : {};
        await stream.writeSSE({ data: JSON.stringify({ error: detail, ...details }) });
      }
    });
  });
