/**
 * `POST /baseline/run`: the I/O of one plain Baton turn, written by hand with no runner, agent, Hono, zod
 * request parsing or AI SDK. It uses the same `SessionObject` RPC methods the store uses, so both sides pay
 * the same object-side cost (SQL, row checks) and the difference is Baton's Worker-side overhead:
 *   1. `beginTurn` (append the user event, take the lease, read the window) with the app and user scope
 *      reads alongside — the three parallel round trips of `DurableObjectSessionStore.beginTurn`;
 *   2. one chat-completions fetch whose body carries the system line and every windowed text event;
 *   3. `append` of the model's event under the lease;
 *   4. `endTurn` to release the lease.
 */
import { type Event, emptyActions } from "../../src/core/event.js";
import { sessionObjectName } from "../../src/session/do-store.js";
import { remote } from "../../src/session/rpc-result.js";
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

/** The answer text of a chat completion, read defensively (no schema library on this path). */
export function answerOf(json: unknown): string {
  if (typeof json !== "object" || json === null || !("choices" in json) || !Array.isArray(json.choices))
    return "";
  const message: unknown = json.choices[0]?.message;
  if (typeof message !== "object" || message === null || !("content" in message)) return "";
  return typeof message.content === "string" ? message.content : "";
}

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

/** Runs one baseline turn and answers with its events as JSON, like `/run`; 409 if the session is busy. */
export async function baselineTurn(request: Request, env: BenchEnv): Promise<Response> {
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
  const { lease } = turn.value;
  try {
    const messages = [
      { role: "system", content: `You are an agent. Your internal name is "${AGENT_NAME}".` },
    ];
    for (const e of turn.value.session.events) {
      const text = textOf(e);
      if (text !== "") messages.push({ role: e.author === "user" ? "user" : "assistant", content: text });
    }
    const response = await fetch(`${env.OPENAI_COMPATIBLE_BASE_URL}/chat/completions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ model: "bench-baseline", messages }),
    });
    const modelEvent = event(invocationId, AGENT_NAME, "model", answerOf(await response.json()), {
      finishReason: "STOP",
      modelVersion: "bench-baseline",
      usageMetadata: { promptTokenCount: 12, candidatesTokenCount: 7, totalTokenCount: 19 },
    });
    const appended = await session.append({ event: modelEvent, lease, leaseTtlMs: LEASE_TTL_MS });
    if (!appended.ok)
      return Response.json({ detail: appended.message, code: appended.code }, { status: 409 });
    return Response.json([modelEvent]);
  } finally {
    await session.endTurn(lease);
  }
}
