import type { Content, Part } from "../core/content.js";

/*
 * ADK's history rewrites for long-running calls (`contents.py`): a function response, however late it
 * came, sits right after its call, and only its newest version counts (ADK-SEMANTICS §3.6).
 */

/** What most messages hold: one shared empty list rather than a new one per message and turn. */
const NONE: readonly string[] = Object.freeze([]);
const NONE_PARTS: readonly Part[] = Object.freeze([]);

/** The ids of a content's function responses or calls, in part order (one loop: this runs per history message). */
function idsOf(content: Content | undefined, kind: "functionResponse" | "functionCall"): readonly string[] {
  let ids: string[] | undefined;
  const parts = content?.parts ?? NONE_PARTS;
  for (let i = 0; i < parts.length; i++) {
    const id = parts[i]?.[kind]?.id;
    if (!id) continue;
    ids ??= [];
    ids.push(id);
  }
  return ids ?? NONE;
}

/** The ids of a content's function responses, in part order. */
export const responseIdsOf = (content: Content | undefined): readonly string[] =>
  idsOf(content, "functionResponse");

/** The ids of a content's function calls, in part order. */
export const callIdsOf = (content: Content | undefined): readonly string[] => idsOf(content, "functionCall");

/**
 * One response content from several: a later response for the same call id replaces the earlier one in
 * place, other parts are appended (ADK `_merge_function_response_events`).
 */
function mergeResponses(contents: readonly Content[]): Content {
  const [first, ...rest] = contents;
  const parts: Part[] = structuredClone(first?.parts ?? []);
  const at = new Map<string, number>();
  parts.forEach((p, i) => {
    if (p.functionResponse?.id) at.set(p.functionResponse.id, i);
  });
  for (const content of rest) {
    for (const part of content.parts ?? []) {
      const id = part.functionResponse?.id;
      const index = id === undefined ? undefined : at.get(id);
      if (index !== undefined) parts[index] = part;
      else {
        if (id !== undefined) at.set(id, parts.length);
        parts.push(part);
      }
    }
  }
  return { ...first, role: first?.role ?? "user", parts };
}

/**
 * When the newest content answers a call that is not right before it (a long-running call answered
 * later), everything between the call and the answer is dropped and the answer, merged over any earlier
 * (pending) response to the same call, follows the call (ADK `_rearrange_events_for_latest_function_response`).
 * ADK raises when no call matches; Baton leaves the history as it is.
 */
export function latestResponseAfterItsCall(contents: readonly Content[]): readonly Content[] {
  const last = contents.at(-1);
  const ids = new Set(responseIdsOf(last));
  if (last === undefined || ids.size === 0) return contents;
  if (callIdsOf(contents.at(-2)).some((id) => ids.has(id))) return contents;
  let callIndex = -1;
  for (let i = contents.length - 2; i >= 0 && callIndex < 0; i--) {
    const calls = callIdsOf(contents[i]);
    if (calls.some((id) => ids.has(id))) {
      callIndex = i;
      // The answer may cover only some of that event's calls; the others' responses come along.
      for (const id of calls) ids.add(id);
    }
  }
  if (callIndex < 0) return contents;
  const between = contents.slice(callIndex + 1, -1).filter((c) => responseIdsOf(c).some((id) => ids.has(id)));
  return [...contents.slice(0, callIndex + 1), mergeResponses([...between, last])];
}

/**
 * Every call is followed by the newest response to each of its ids, merged into one content; responses
 * are removed from where they were (ADK `_rearrange_events_for_async_function_responses_in_history`).
 * A response whose call is not in the history is dropped, as in ADK; id-less responses stay in place.
 */
export function responsesAfterTheirCalls(contents: readonly Content[]): Content[] {
  const answered: (readonly string[])[] = [];
  const newestIndex = new Map<string, number>();
  for (let i = 0; i < contents.length; i++) {
    const ids = responseIdsOf(contents[i]);
    answered.push(ids);
    for (const id of ids) newestIndex.set(id, i);
  }
  const out: Content[] = [];
  for (let i = 0; i < contents.length; i++) {
    const content = contents[i];
    if (content === undefined || (answered[i]?.length ?? 0) > 0) continue;
    out.push(content);
    const calls = callIdsOf(content);
    if (calls.length === 0) continue;
    const indices = [...new Set(calls.flatMap((id) => newestIndex.get(id) ?? []))].sort((a, b) => a - b);
    const responses = indices.flatMap((i) => contents[i] ?? []);
    if (responses.length === 1 && responses[0]) out.push(responses[0]);
    else if (responses.length > 1) out.push(mergeResponses(responses));
  }
  return out;
}
