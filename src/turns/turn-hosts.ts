import type { Event } from "../core/event.js";
import type { RunRequest } from "../core/ports.js";
import type { SessionObject } from "../objects/session-object.js";

/** What a Worker asks a session's object to run (decision 040): the turn as `Runner.start` takes it. */
export interface ObjectTurnRequest {
  /** Which `createWorker` of the Worker's script holds the app (`registerTurnHost`'s answer). */
  host: string;
  appName: string;
  /** The request as `Runner.start` takes it; an `AbortSignal` cannot cross, the object makes its own. */
  run: Omit<RunRequest, "signal">;
  /**
   * The Worker's string vars and secrets. The object has the same bindings as the Worker that calls it, and
   * in a deploy the same vars; a Worker built with other vars (tests, `createWorker` called with a wider
   * env) still runs its turns with its own.
   */
  vars: Record<string, string>;
  /**
   * The turn is read as `/run_sse` answers it: its stream carries the events' SSE frames, made here
   * (`core/sse-frames.ts`), and the Worker passes them on as they come. Lines otherwise (NDJSON).
   */
  sse?: { functionCallEventId?: string | undefined };
}

/**
 * Where a session object's `fetch` takes `/run_sse`'s turn (decision 045): a `POST` of the
 * `ObjectTurnRequest`'s JSON, answered with the turn's SSE frames as the response body. The host part is
 * never resolved: a stub's `fetch` goes to its object whatever the URL names.
 */
export const SSE_TURN_URL = "https://session-object/turns/sse";

/** The content type of the object's answer that streams the turn; any other answer is an `RpcResult`'s JSON. */
export const SSE_CONTENT_TYPE = "text/event-stream";

/**
 * What runs a turn inside a session's object: `createWorker` registers one for its apps. `start` begins
 * the turn in `env` (refusals throw before any event) and returns its events; `keepAlive` holds work that
 * must outlive the turn's stream (trace export); `inside` is the object it runs in (named as the store
 * names it), which the turn's store calls directly.
 */
export interface TurnHost {
  start(
    env: Record<string, unknown>,
    request: Pick<ObjectTurnRequest, "appName" | "run">,
    keepAlive: (work: Promise<unknown>) => void,
    inside: { name: string; object: SessionObject },
  ): Promise<AsyncGenerator<Event>>;
}

const hosts = new Map<string, TurnHost>();
let registered = 0;

/**
 * Hosts one isolate keeps. A script calls `createWorker` once at its top level (a test file, a few hundred
 * times); one that calls it per request would otherwise grow this map with every request.
 */
export const MAX_TURN_HOSTS = 1_000;

/**
 * Registers a Worker's turn host and answers its name. Names count `createWorker` calls in the order the
 * script makes them: a Worker's isolate and a Durable Object's isolate evaluate the same script, so the
 * same call gets the same name on both sides (and, where they share an isolate, the same host). Past
 * `MAX_TURN_HOSTS` it registers nothing and answers `undefined`: that Worker's turns run in the request
 * (docs/durable-turns.md, decision 040).
 */
export function registerTurnHost(host: TurnHost): string | undefined {
  registered += 1;
  if (registered > MAX_TURN_HOSTS) return undefined;
  const name = `worker-${registered}`;
  hosts.set(name, host);
  return name;
}

/** The turn host registered under `name` in this isolate, if any. */
export const turnHost = (name: string): TurnHost | undefined => hosts.get(name);
