import type { Event } from "../core/event.js";
import { errorFrame } from "../core/sse-frames.js";
import type { RunRequest } from "../runner/runner.js";
import type { SessionStoreEnv } from "../session/do-store.js";
import { jsonLines, passedOn } from "../storage/feed-lines.js";
import { sessionObjectName } from "../storage/object-names.js";
import { type RpcResult, remote, unwrap } from "../storage/rpc-result.js";
import { lineError, type TurnLine } from "../turns/object-turns.js";
import { type ObjectTurnRequest, SSE_CONTENT_TYPE, SSE_TURN_URL } from "../turns/turn-hosts.js";

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
  const session = remote(sessionOf(env, appName, run));
  const begun = unwrap(await session.runTurn({ host, appName, run, vars: stringVars(env) }, toEnd));
  if (!begun) return undefined;
  const { lines, rest } = begun;
  const first = lines.map((text) => eventOf(JSON.parse(text)));
  if (!rest) return first;
  return inOrder(
    first,
    jsonLines(rest.stream, eventOf, () => session.stopTurnStream(rest.streamId)),
  );
}

/**
 * `/run_sse`'s turn in its session's object, asked for over the object's `fetch` (decision 045): the object
 * frames the events itself and its response body streams them here, passed on as they come (`passedOn`),
 * nothing read out of them. Refusals reject before any frame; a stream that breaks ends with its error
 * frame; a client that leaves cancels the object's body, and the turn runs on. `undefined` when the
 * object's isolate has no host of that name. Nothing of it is kept in the request's `waitUntil`: the
 * response's body is open as long as the passing on runs.
 */
export async function startObjectSse(
  env: SessionStoreEnv & Record<string, unknown>,
  host: string,
  appName: string,
  run: Omit<RunRequest, "signal">,
  functionCallEventId: string | undefined,
): Promise<ReadableStream<Uint8Array> | undefined> {
  const request: ObjectTurnRequest = {
    host,
    appName,
    run,
    vars: stringVars(env),
    sse: { functionCallEventId },
  };
  const answer = await sessionOf(env, appName, run).fetch(SSE_TURN_URL, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(request),
  });
  if (answer.body && answer.headers.get("content-type") === SSE_CONTENT_TYPE) {
    return passedOn(answer.body, errorFrame);
  }
  // SAFETY: any other answer is the JSON of the `RpcResult` `ObjectTurns.sse` made: a refusal, or `null`.
  return unwrap((await answer.json()) as RpcResult<null>) ?? undefined;
}

/** The stub of the turn's session object. */
const sessionOf = (env: SessionStoreEnv, appName: string, run: Omit<RunRequest, "signal">) =>
  env.SESSIONS.getByName(sessionObjectName({ appName, userId: run.userId, sessionId: run.sessionId }));

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
export function stringVars(env: Record<string, unknown>): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (typeof value === "string") vars[name] = value;
  return vars;
}
