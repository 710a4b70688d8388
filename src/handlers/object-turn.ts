import { BatonError } from "../core/errors.js";
import type { Event } from "../core/event.js";
import type { RunRequest } from "../runner/runner.js";
import { type SessionStoreEnv, sessionObjectName } from "../session/do-store.js";
import { jsonLines } from "../session/feed-lines.js";
import type { TurnLine } from "../session/object-turns.js";
import { remote, unwrap } from "../session/rpc-result.js";

/**
 * Runs the turn in its session's Durable Object (decision 040) and answers its events as the object
 * streams them; refusals (400/404/409) reject before any event. `undefined` when the object's isolate has
 * no host of that name: the caller runs the turn itself. A reader that stops early (a client that left)
 * only ends the stream; the turn runs on in the object and stores every event.
 */
export async function startObjectTurn(
  env: SessionStoreEnv & Record<string, unknown>,
  host: string,
  appName: string,
  run: Omit<RunRequest, "signal">,
): Promise<AsyncIterable<Event> | undefined> {
  const key = { appName, userId: run.userId, sessionId: run.sessionId };
  const session = remote(env.SESSIONS.getByName(sessionObjectName(key)));
  const begun = unwrap(await session.runTurn({ host, appName, run, vars: stringVars(env) }));
  if (!begun) return undefined;
  const lines = jsonLines(begun.stream, asTurnLine, () => session.stopTurnStream(begun.streamId));
  return events(lines);
}

async function* events(lines: AsyncGenerator<TurnLine>): AsyncGenerator<Event> {
  for await (const line of lines) {
    if ("event" in line) {
      yield line.event;
      continue;
    }
    const { code, name, message } = line.error;
    throw code === undefined ? Object.assign(new Error(message), { name }) : new BatonError(code, message);
  }
}

/** The Worker's string vars and secrets: what the object's env takes from its caller (`ObjectTurnRequest`). */
function stringVars(env: Record<string, unknown>): Record<string, string> {
  const vars: Record<string, string> = {};
  for (const [name, value] of Object.entries(env)) if (typeof value === "string") vars[name] = value;
  return vars;
}

// SAFETY: the lines are the session object's own (`ObjectTurns`), JSON of events it stored or yielded; the
// object checked them as it stored them, and a second zod pass per event would cost each turn's stream.
const asTurnLine = (value: unknown): TurnLine => value as TurnLine;
