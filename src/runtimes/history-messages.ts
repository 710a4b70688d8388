import type { Content, FunctionCall, Part } from "../core/content.js";

/** One call with its (latest) response, or a text or file part, in the order the history gives them. */
export type HistoryItem =
  | { kind: "user"; parts: Part[] }
  | { kind: "assistant"; parts: Part[] }
  | {
      kind: "results";
      results: { call: FunctionCall & { id: string }; response: Record<string, unknown> }[];
    };

/**
 * ADK history prepared for a foreign loop's message format: a call keeps only its latest response (a
 * call answered twice, as after a confirmation, would be rejected by providers), and a call that never
 * got a response is left out (providers reject an unanswered tool call). Thought parts are dropped.
 */
export function historyItems(history: readonly Content[]): HistoryItem[] {
  const latest = new Map<string, Record<string, unknown>>();
  const calls = new Map<string, FunctionCall & { id: string }>();
  for (const content of history) {
    for (const part of content.parts ?? []) {
      const r = part.functionResponse;
      if (r?.id) latest.set(r.id, r.response);
      const c = part.functionCall;
      if (c?.id) calls.set(c.id, { ...c, id: c.id });
    }
  }
  const answered = new Set<string>();
  const items: HistoryItem[] = [];
  for (const content of history) {
    const parts = (content.parts ?? []).filter((p) => !p.thought);
    if (content.role === "model") {
      const kept = parts.filter(
        (p) => !p.functionCall || (p.functionCall.id && latest.has(p.functionCall.id)),
      );
      if (kept.length > 0) items.push({ kind: "assistant", parts: kept });
      continue;
    }
    const results = parts.flatMap((p) => {
      const id = p.functionResponse?.id;
      const call = id === undefined ? undefined : calls.get(id);
      const response = id === undefined ? undefined : latest.get(id);
      if (id === undefined || call === undefined || response === undefined || answered.has(id)) return [];
      answered.add(id);
      return [{ call, response }];
    });
    if (results.length > 0) items.push({ kind: "results", results });
    const rest = parts.filter((p) => !p.functionResponse);
    if (rest.length > 0) items.push({ kind: "user", parts: rest });
  }
  return items;
}
