import { BatonError } from "../core/errors.js";
import type { Event } from "../core/event.js";
import { errorFrame } from "../core/sse-frames.js";
import type { RunRequest } from "../runner/runner.js";
import { type SessionStoreEnv, sessionObjectName } from "../session/do-store.js";
import { jsonLines, passedOn } from "../session/feed-lines.js";
import { lineError, type TurnLine } from "../session/object-turns.js";
import { remote, unwrap } from "../session/rpc-result.js";
import type { ObjectTurnRequest } from "../session/turn-hosts.js";

/**
 * Runs the turn in its session's Durable Object (decision 040) and answers its events as the object
 * streams them, or (`toEnd`) all of them once the turn ended, from one RPC answer; refusals (400/404/409)
 * reject before any event. `undefined` when the object's isolate has no host of that name: the caller runs
 * the turn itself. A reader that stops early (a client that left) only ends the stream; the turn runs on
 * in the object and stores every event. A line that reports the turn's failure is thrown where it comes.
 */
export async function startObjectTurn(
  env: SessionStoreEnv & Record<string, unknown>,
  host: string,
  appName: string,
  run: Omit<RunRequest, "signal">,
  toEnd?: boolean,
): Promise<AsyncIterable<Event> | Event[] | undefined> {
  const started = await beginInObject(env, { host, appName, run }, toEnd);
  if (!started) return undefined;
  const { session, lines, rest } = started;
  const first = lines.map((text) => eventOf(JSON.parse(text)));
  if (!rest) return first;
  return inOrder(
    first,
    jsonLines(rest.stream, eventOf, () => session.stopTurnStream(rest.streamId)),
  );
}

/**
 * `/run_sse`'s turn in its session's object: the object frames the events itself and the Worker passes the
 * bytes on as they come (`passedOn`), with no line read or event parsed here. Refusals reject before any
 * frame; a stream that breaks ends with its error frame; a client that leaves ends the stream, as
 * `startObjectTurn`'s does. `undefined` when the object's isolate has no host of that name.
 */
export async function startObjectSse(
  env: SessionStoreEnv & Record<string, unknown>,
  host: string,
  appName: string,
  run: Omit<RunRequest, "signal">,
  functionCallEventId: string | undefined,
): Promise<ReadableStream<Uint8Array> | undefined> {
  const started = await beginInObject(env, { host, appName, run, sse: { functionCallEventId } });
  if (!started) return undefined;
  const { session, rest } = started;
  // A streamed turn answers on its stream from the start, with no lines before it (`ObjectTurns.run`).
  if (!rest) throw new BatonError("internal", "The session object answered a streamed turn with no stream");
  return passedOn(rest.stream, () => session.stopTurnStream(rest.streamId), errorFrame);
}

/**
 * Begins the turn in its session's object with the Worker's string vars: the object (to stop its stream
 * later) and its answer, or `undefined` when the object's isolate has no host of that name.
 */
async function beginInObject(
  env: SessionStoreEnv & Record<string, unknown>,
  request: Omit<ObjectTurnRequest, "vars">,
  toEnd?: boolean,
) {
  const { appName, run } = request;
  const key = { appName, userId: run.userId, sessionId: run.sessionId };
  const session = remote(env.SESSIONS.getByName(sessionObjectName(key)));
  const begun = unwrap(await session.runTurn({ ...request, vars: stringVars(env) }, toEnd));
  return begun ? { session, ...begun } : undefined;
}

async function* inOrder(first: Event[], rest: AsyncGenerator<Event>): AsyncGenerator<Event> {
  yield* first;
  yield* rest;
}

/** A line of the turn's answer as its event; a line that reports the turn's failure is thrown as that failure. */
function eventOf(value: unknown): Event {
  // SAFETY: the lines are the session object's own (`ObjectTurns`), JSON of events it stored or yielded; the
  // object checked them as it stored them, and a second zod pass per event would cost each turn's stream.
  const line = value as TurnLine;
  if ("event" in line) return line.event;
  throw lineError(line.error);
}

/** The Worker's string vars and secrets: what the object's env takes from its caller (`ObjectTurnRequest`). */
function stringVars(env: Record<string, unknown>): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (typeof value === "string") vars[name] = value;
  return vars;
}
