import { reframe } from "../../agents/history.js";
import { functionResponsesOf, type Part } from "../../core/content.js";
import type { Event } from "../../core/event.js";
import { newestFirst } from "../../router/newest-first.js";
import type { A2aMessage, A2aPart } from "../protocol/a2a-objects.js";
import { AUTH_REQUIRED_CALL, INPUT_REQUIRED_CALL } from "./content-of.js";
import { toA2aPart } from "./part-convert.js";

/** What a turn sends: a message, or nothing when nothing new happened since the last reply (§5.2 B). */
export type Outgoing = { kind: "send"; message: A2aMessage } | { kind: "nothing" };

const MOCK_CALLS = new Set([INPUT_REQUIRED_CALL, AUTH_REQUIRED_CALL]);
const IS_USER_INPUT = "is_user_input";

const str = (v: unknown): string | undefined => (typeof v === "string" && v !== "" ? v : undefined);

/** A reply of this remote agent: the point up to which the peer already knows the conversation. */
const isRemoteResponse = (e: Event, self: string): boolean =>
  e.author === self && Boolean(e.customMetadata?.["a2a:response"]);

/**
 * The message for this turn (ADK-SEMANTICS §5.2): a function-response continuation of a task this agent
 * paused, or the events since its last reply, other agents' re-framed as "For context:", in a fresh task
 * of the last reply's context.
 */
export function buildOutgoing(events: readonly Event[], self: string, messageId: string): Outgoing {
  return continuation(events, self, messageId) ?? sinceLastReply(events, self, messageId);
}

/** §5.2 A: the user answers a call this agent made; the same task and context carry on. */
function continuation(events: readonly Event[], self: string, messageId: string): Outgoing | undefined {
  const last = events.at(-1);
  if (last?.author !== "user") return undefined;
  const response = functionResponsesOf(last.content)[0];
  if (response?.id === undefined) return undefined;
  const call = events.findLast((e) =>
    (e.content?.parts ?? []).some((p) => p.functionCall?.id === response.id),
  );
  // Only answers to this agent's own calls go to the peer (the JS ADK's credential scrubbing).
  if (call?.author !== self) return undefined;
  const parts = (last.content?.parts ?? []).flatMap((p): Part[] => {
    const fr = p.functionResponse;
    if (!fr || !MOCK_CALLS.has(fr.name)) return [p];
    const result = fr.response.result;
    return [{ text: typeof result === "string" ? result : JSON.stringify(result ?? fr.response) }];
  });
  const taskId = str(call.customMetadata?.["a2a:task_id"]);
  const contextId = str(call.customMetadata?.["a2a:context_id"]);
  return {
    kind: "send",
    message: {
      messageId,
      role: "ROLE_USER",
      parts: toA2aParts(parts, { [IS_USER_INPUT]: true }),
      ...(taskId ? { taskId } : {}),
      ...(contextId ? { contextId } : {}),
    },
  };
}

/** §5.2 B: everything after this agent's last reply (its error events are not stop points). */
function sinceLastReply(events: readonly Event[], self: string, messageId: string): Outgoing {
  const fresh: Event[] = [];
  let contextId: string | undefined;
  for (const e of newestFirst(events)) {
    if (isRemoteResponse(e, self)) {
      contextId = str(e.customMetadata?.["a2a:context_id"]);
      break;
    }
    fresh.push(e);
  }
  const parts: A2aPart[] = [];
  for (const e of fresh.reverse()) {
    if ((e.content?.parts?.length ?? 0) === 0) continue;
    if (e.author === "user") parts.push(...toA2aParts(e.content?.parts ?? [], { [IS_USER_INPUT]: true }));
    else if (e.author === self) parts.push(...toA2aParts(e.content?.parts ?? []));
    else parts.push(...toA2aParts(reframe(e)?.parts ?? []));
  }
  if (parts.length === 0) return { kind: "nothing" };
  return {
    kind: "send",
    message: { messageId, role: "ROLE_USER", parts, ...(contextId ? { contextId } : {}) },
  };
}

const toA2aParts = (parts: readonly Part[], metadata?: Record<string, unknown>): A2aPart[] =>
  parts.flatMap((p) => {
    const out = toA2aPart(p, metadata);
    return out ? [out] : [];
  });
