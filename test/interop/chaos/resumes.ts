// What a kill cut off in a session, and when its turns ran again: read from the fake servers' logs and the
// stored turn traces (a resumed turn's trace begins when the turn begins again).
import type { Event } from "../../../src/core/event.js";
import type { Sent } from "./checks.js";
import type { ToolHit } from "./counter.js";
import type { ModelCall } from "./fake-model.js";

/** A span as the dev server's `/debug/trace/session/:session` answers it (times in ns). */
export interface TraceSpan {
  name: string;
  start_time: number;
  end_time: number;
  attributes: Record<string, unknown>;
}

/** A user's message (not a compaction, which the store keeps as a content-less user event) stored before `at`. */
export const isMessageBefore = (event: Event, at: number): boolean =>
  event.author === "user" && event.content !== undefined && event.timestamp * 1000 < at;

/** A turn cut off by the kill that ran again, and how long after the restart (or, outside, the kill). */
export interface Resume {
  scenario: string;
  invocationId: string;
  outside: boolean;
  latencyMs: number;
}

/** A call of the A2A peer: when it came, for which messages (it answers 2.5 s later). */
export interface PeerCall {
  at: number;
  tags: string[];
}
export const PEER_ANSWER_MS = 2_500;

const INVOCATION = "gcp.vertex.agent.invocation_id";

/**
 * The turns of a session that began before the kill and began again after the restart: each invocation's
 * first turn trace that starts after the restart. A turn that ended before the kill stored its trace then.
 */
export function resumesOf(
  events: readonly Event[],
  spans: readonly TraceSpan[],
  at: { killAt: number; restartAt: number; outside: boolean; scenario: string },
): Resume[] {
  const begunBefore = new Set(events.filter((e) => isMessageBefore(e, at.killAt)).map((e) => e.invocationId));
  const first = new Map<string, number>();
  for (const span of spans) {
    const id = String(span.attributes[INVOCATION] ?? "");
    const startMs = span.start_time / 1e6;
    if (span.name !== "invocation" || !begunBefore.has(id) || startMs < at.killAt) continue;
    first.set(id, Math.min(first.get(id) ?? Number.POSITIVE_INFINITY, startMs));
  }
  return [...first].map(([invocationId, startMs]) => ({
    scenario: at.scenario,
    invocationId,
    outside: at.outside,
    latencyMs: Math.max(0, startMs - (at.outside ? at.killAt : at.restartAt)),
  }));
}

/** What was under way in a session when the kill came, as labels (one session may count for two). */
export function landingOf(
  session: { sent: readonly Sent[]; scenario: { name: string } },
  killAt: number,
  log: { model: readonly ModelCall[]; tools: readonly ToolHit[]; peer: readonly PeerCall[] },
): string[] {
  const tags = new Set(session.sent.map((m) => m.tag));
  const ours = (list: readonly string[]) => list.some((tag) => tags.has(tag));
  const during = (from: number, to: number | undefined) =>
    from <= killAt && (to === undefined || to >= killAt);
  const labels: string[] = [];
  for (const call of log.model)
    if (ours(call.tags) && during(call.at, call.doneAt))
      labels.push(call.kind === "summary" ? "a compaction (summary call)" : `a model call (${call.kind})`);
  for (const hit of log.tools)
    if (tags.has(hit.ref) && during(hit.at, hit.doneAt))
      labels.push(hit.tool === "charge" ? "a slow tool (charge)" : "a tool of a chain (lookup)");
  for (const call of log.peer)
    if (ours(call.tags) && during(call.at, call.at + PEER_ANSWER_MS)) labels.push("a remote A2A call");
  const open = session.sent.filter((m) => m.status === undefined && m.sentAt <= killAt).length;
  if (open > 1) labels.push("messages waiting");
  if (labels.length === 0) labels.push(open > 0 ? "between steps (appends, queue)" : "an idle session");
  return [...new Set(labels)];
}

/** The `p`th percentile (nearest rank) of `values`; 0 for none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length, Math.max(1, Math.ceil((p / 100) * sorted.length)));
  return sorted[rank - 1] ?? 0;
}
