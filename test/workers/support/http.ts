import { createExecutionContext, waitOnExecutionContext } from "cloudflare:test";
import { env, exports } from "cloudflare:workers";
import { expect, inject } from "vitest";
import type { Event } from "../../../src/core/event.js";
import type { Session } from "../../../src/core/session.js";
import {
  type BatonWorkerEnv,
  createWorker,
  type WorkerOptions,
} from "../../../src/handlers/create-worker.js";
import { openaiCompatible } from "../../../src/models/openai-compatible-provider.js";

/** One HTTP request to a Worker; `json` is sent as the body, `token` as the bearer (none when `null`). */
export interface CallInit extends Omit<RequestInit, "body"> {
  json?: unknown;
  body?: string | ReadableStream<Uint8Array>;
  token?: string | null;
}

export type Call = (path: string, init?: CallInit) => Promise<Response>;

function toRequest(path: string, init: CallInit, defaultToken: string | null): Request {
  const { json, token = defaultToken, ...rest } = init;
  const headers = new Headers(rest.headers);
  if (token !== null) headers.set("authorization", `Bearer ${token}`);
  if (json !== undefined) headers.set("content-type", "application/json");
  const body = json === undefined ? rest.body : JSON.stringify(json);
  // A path is sent to http://baton.test; a whole URL (another host) as it is.
  const url = /^https?:\/\//.test(path) ? path : `http://baton.test${path}`;
  return new Request(url, {
    ...rest,
    headers,
    ...(body === undefined ? {} : { body }),
  });
}

/** Calls the real Worker entry (`src/worker.ts`, the demo app) with the workers project's bearer token. */
export function callEntry(): Call {
  const token = inject("workersApiToken");
  return (path, init = {}) => exports.default.fetch(toRequest(path, init, token));
}

/** Retry waits in tests: none (the default policy would sleep between model attempts). */
export const noSleep = async (_ms: number): Promise<void> => undefined;

/** The bearer token `callWorker` configures unless its env says otherwise. */
export const TEST_TOKEN = "t-main";

/**
 * A `createWorker` Worker called with the test env plus `vars` (the DO bindings stay the real ones).
 * `API_TOKENS` defaults to `TEST_TOKEN`, which each call presents unless told otherwise.
 */
export function callWorker(options: WorkerOptions, vars: Record<string, string | undefined> = {}): Call {
  const worker = createWorker({ models: [openaiCompatible()], ...options });
  const workerEnv: BatonWorkerEnv = { ...env, API_TOKENS: TEST_TOKEN, ...vars };
  return async (path, init = {}) => {
    const ctx = createExecutionContext();
    // SAFETY: an incoming request differs only in its `cf` object, which no handler reads.
    const request = toRequest(path, init, TEST_TOKEN) as Request<unknown, IncomingRequestCfProperties>;
    const response = await worker.fetch(request, workerEnv, ctx);
    await waitOnExecutionContext(ctx);
    return response;
  };
}

/** The JSON body of a response that must have this status. */
export async function expectJson<T = unknown>(
  response: Response | Promise<Response>,
  status: number,
): Promise<T> {
  const res = await response;
  const body = await res.text();
  expect(res.status, body).toBe(status);
  // SAFETY: the caller names the shape the API documents for this status; assertions on it follow.
  return JSON.parse(body) as T;
}

/** The events of a `/run_sse` body, one per `data:` frame. */
export async function sseEvents(response: Response): Promise<Event[]> {
  return (await sseFrames(response)).map((frame) => frame.event);
}

/** The frames of an SSE body: each one's event (its `data:` line) and its SSE `id`, if it has one. */
export async function sseFrames(response: Response): Promise<{ event: Event; id: string | undefined }[]> {
  expect(response.headers.get("content-type")).toContain("text/event-stream");
  const frames = (await response.text()).split("\n\n").filter((frame) => frame.trim() !== "");
  return frames.map((frame) => {
    const lines = frame.split("\n");
    expect(lines[0]).toMatch(/^data: /);
    const id = lines.find((l) => l.startsWith("id: "))?.slice("id: ".length);
    // SAFETY: each frame carries one event serialised by the handler; the tests check its fields.
    return { event: JSON.parse(lines[0]?.slice("data: ".length) ?? "") as Event, id };
  });
}

/** Unique ids for one test: app, user and session names no other test uses. */
export function freshIds(prefix = "t") {
  const id = crypto.randomUUID().slice(0, 8);
  return { id, app: `${prefix}-${id}`, user: `u-${id}`, session: `s-${id}` };
}

/** A `/run` body (camelCase) for a text message. */
export function runBody(app: string, user: string, session: string, text: string, extra = {}) {
  return {
    appName: app,
    userId: user,
    sessionId: session,
    newMessage: { role: "user", parts: [{ text }] },
    ...extra,
  };
}

/** Session helpers over one Worker. */
export function sessionsOf(call: Call, app: string, user: string) {
  const base = `/apps/${app}/users/${user}/sessions`;
  return {
    create: (body?: unknown) => expectJson<Session>(call(base, { method: "POST", json: body ?? {} }), 200),
    get: (session: string) => expectJson<Session>(call(`${base}/${session}`), 200),
    eventsOf: async (session: string) => (await expectJson<Session>(call(`${base}/${session}`), 200)).events,
  };
}
