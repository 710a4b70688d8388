/**
 * `POST /baseline/run`: the I/O of one plain Baton turn, written by hand with no runner, agent, Hono, zod
 * request parsing or AI SDK. It uses the same `SessionObject` RPC methods the store uses, so both sides pay
 * the same object-side cost (SQL, row checks) and the difference is Baton's Worker-side overhead:
 *   1. `beginTurn` (append the user event, take the lease, read the window) with the app and user scope
 *      reads alongside — the three parallel round trips of `DurableObjectSessionStore.beginTurn`;
 *   2. one chat-completions fetch whose body carries the system line and every windowed text event;
 *   3. `append` of the model's event under the lease;
 *   4. `endTurn` to release the lease.
 * `POST /baseline/run_sse` is the same turn streamed (`baselineSseTurn`).
 */
import { createParser } from "eventsource-parser";
import { type Event, emptyActions } from "../../src/core/event.js";
import type { SessionObject } from "../../src/objects/session-object.js";
import { sessionObjectName } from "../../src/storage/object-names.js";
import { type Remote, remote } from "../../src/storage/rpc-result.js";
import { AGENT_NAME, type BenchEnv, BOUNDED_APP, HISTORY_BOUND, hasFields } from "./bench-env.js";

const LEASE_TTL_MS = 120_000;

interface BaselineRequest {
  appName: string;
  userId: string;
  sessionId: string;
  text: string;
}

const isBaselineRequest = (v: unknown): v is BaselineRequest =>
  hasFields<BaselineRequest>(v, { appName: "string", userId: "string", sessionId: "string", text: "string" });

const textOf = (e: Event): string => (e.content?.parts ?? []).map((p) => p.text ?? "").join("");

/**
 * The text content of a chat completion's first choice, read defensively (no schema library on this
 * path): its `message` in a whole answer, its `delta` in a streamed chunk.
 */
function choiceText(json: unknown, field: "message" | "delta"): string {
  if (typeof json !== "object" || json === null || !("choices" in json) || !Array.isArray(json.choices))
    return "";
  const choice: unknown = json.choices[0]?.[field];
  if (typeof choice !== "object" || choice === null || !("content" in choice)) return "";
  return typeof choice.content === "string" ? choice.content : "";
}

/** The answer text of a whole chat completion. */
export const answerOf = (json: unknown): string => choiceText(json, "message");

/** The text delta of one streamed chunk. */
export const deltaOf = (json: unknown): string => choiceText(json, "delta");

function event(
  invocationId: string,
  author: string,
  role: string,
  text: string,
  extra: Partial<Event> = {},
): Event {
  const parts = [{ text }];
  return {
    id: crypto.randomUUID(),
    invocationId,
    author,
    timestamp: Date.now() / 1000,
    content: { role, parts },
    actions: emptyActions(),
    ...extra,
  };
}

/** A baseline turn begun: the session's lease is held and the prompt's messages are built. */
interface BegunTurn {
  session: Remote<SessionObject>;
  invocationId: string;
  lease: string;
  messages: Array<{ role: string; content: string }>;
}

/** Checks the request, appends the user event and takes the lease; a `Response` when it cannot. */
async function beginTurn(request: Request, env: BenchEnv): Promise<BegunTurn | Response> {
  const body: unknown = await request.json();
  if (!isBaselineRequest(body)) return Response.json({ detail: "bad baseline request" }, { status: 400 });
  const session = remote(env.SESSIONS.getByName(sessionObjectName(body)));
  const invocationId = `e-${crypto.randomUUID()}`;
  const userEvent = event(invocationId, "user", "user", body.text);
  const window = body.appName === BOUNDED_APP ? { numRecentEvents: HISTORY_BOUND } : {};
  const [turn] = await Promise.all([
    session.beginTurn({ event: userEvent, window, leaseTtlMs: LEASE_TTL_MS }),
    remote(env.APPS.getByName(JSON.stringify([body.appName]))).merge({}),
    remote(env.USERS.getByName(JSON.stringify([body.appName, body.userId]))).merge({}),
  ]);
  if (!turn.ok) return Response.json({ detail: turn.message, code: turn.code }, { status: 409 });
  const messages = [{ role: "system", content: `You are an agent. Your internal name is "${AGENT_NAME}".` }];
  for (const e of turn.value.session.events) {
    const text = textOf(e);
    if (text !== "") messages.push({ role: e.author === "user" ? "user" : "assistant", content: text });
  }
  return { session, invocationId, lease: turn.value.lease, messages };
}

/** One chat-completions call for the turn's messages, streamed or not. */
const modelCall = (env: BenchEnv, turn: BegunTurn, stream: boolean): Promise<Response> =>
  fetch(`${env.OPENAI_COMPATIBLE_BASE_URL}/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ model: "bench-baseline", messages: turn.messages, ...(stream ? { stream } : {}) }),
  });

/** The turn's model event for the model's whole answer. */
const finalEvent = (turn: BegunTurn, text: string): Event =>
  event(turn.invocationId, AGENT_NAME, "model", text, {
    finishReason: "STOP",
    modelVersion: "bench-baseline",
    usageMetadata: { promptTokenCount: 12, candidatesTokenCount: 7, totalTokenCount: 19 },
  });

/** Stores the model's event under the lease; the refusal's message if it was not stored. */
async function store(turn: BegunTurn, modelEvent: Event): Promise<string | undefined> {
  const appended = await turn.session.append({
    event: modelEvent,
    lease: turn.lease,
    leaseTtlMs: LEASE_TTL_MS,
  });
  return appended.ok ? undefined : appended.message;
}

/** Runs one baseline turn and answers with its events as JSON, like `/run`; 409 if the session is busy. */
export async function baselineTurn(request: Request, env: BenchEnv): Promise<Response> {
  const turn = await beginTurn(request, env);
  if (turn instanceof Response) return turn;
  try {
    const response = await modelCall(env, turn, false);
    const modelEvent = finalEvent(turn, answerOf(await response.json()));
    const refused = await store(turn, modelEvent);
    if (refused !== undefined) return Response.json({ detail: refused }, { status: 409 });
    return Response.json([modelEvent]);
  } finally {
    await turn.session.endTurn(turn.lease);
  }
}

const encoder = new TextEncoder();

/**
 * The same turn streamed, like `/run_sse` with `streaming: true`: the model is asked to stream, each text
 * delta goes out at once as a partial event's `data:` frame, then the stored event's frame. The I/O of a
 * streamed turn written by hand (one stream read, `eventsource-parser`), for figure (s)'s companion row.
 */
export async function baselineSseTurn(request: Request, env: BenchEnv): Promise<Response> {
  const turn = await beginTurn(request, env);
  if (turn instanceof Response) return turn;
  const body = new ReadableStream<Uint8Array>({
    async start(controller) {
      const frame = (e: Event) => controller.enqueue(encoder.encode(`data: ${JSON.stringify(e)}\n\n`));
      try {
        let text = "";
        const parser = createParser({
          onEvent({ data }) {
            if (data === "[DONE]") return;
            const delta = deltaOf(JSON.parse(data));
            if (delta === "") return;
            text += delta;
            frame(event(turn.invocationId, AGENT_NAME, "model", delta, { partial: true }));
          },
        });
        const response = await modelCall(env, turn, true);
        const decoder = new TextDecoder();
        for await (const bytes of response.body ?? new ReadableStream<Uint8Array>())
          parser.feed(decoder.decode(bytes, { stream: true }));
        const modelEvent = finalEvent(turn, text);
        const refused = await store(turn, modelEvent);
        if (refused === undefined) frame(modelEvent);
        else controller.enqueue(encoder.encode(`data: ${JSON.stringify({ error: refused })}\n\n`));
      } finally {
        await turn.session.endTurn(turn.lease);
        controller.close();
      }
    },
  });
  return new Response(body, {
    headers: { "content-type": "text/event-stream", "cache-control": "no-cache" },
  });
}
