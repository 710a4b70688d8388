import { BatonError } from "../core/errors.js";
import type { Event } from "../core/event.js";
import type { RunRequest } from "../runner/runner.js";
import { type SessionStoreEnv, sessionObjectName } from "../session/do-store.js";
import { jsonLines } from "../session/feed-lines.js";
import type { TurnLine } from "../session/object-turns.js";
import { remote, unwrap } from "../session/rpc-result.js";

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
  const key = { appName, userId: run.userId, sessionId: run.sessionId };
  const session = remote(env.SESSIONS.getByName(sessionObjectName(key)));
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
  const { code, name, message } = line.error;
  throw code === undefined ? Object.assign(new Error(message), { name }) : new BatonError(code, message);
}

/** The Worker's string vars and secrets: what the object's env takes from its caller (`ObjectTurnRequest`). */
function stringVars(env: Record<string, unknown>): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (typeof value === "string") vars[name] = value;
  return vars;
}
