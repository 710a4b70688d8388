import * as z from "zod";
import { type Content, ContentSchema, wireObject } from "./content.js";
import type { Event } from "./event.js";

/**
 * ADK `EventCompaction`: a summary that stands, in every later prompt, for the raw events whose timestamps
 * fall in `[startTimestamp, endTimestamp]`. It rides on a content-less event (`actions.compaction`); the
 * events it covers stay stored and readable.
 */
export const EventCompactionSchema = wireObject({
  startTimestamp: z.number(),
  endTimestamp: z.number(),
  compactedContent: ContentSchema,
});
export type EventCompaction = z.infer<typeof EventCompactionSchema>;

/** The event's compaction when it carries a whole one (ADK skips one without both bounds or a content). */
export function compactionOf(event: Event): EventCompaction | undefined {
  const raw = event.actions.compaction;
  if (raw === undefined) return undefined;
  const parsed = EventCompactionSchema.safeParse(raw);
  return parsed.success ? parsed.data : undefined;
}

/** Whether any event carries a compaction: the cheap check that spares nearly every session the pass below. */
export function hasCompaction(events: readonly Event[]): boolean {
  for (let i = 0; i < events.length; i++) if (events[i]?.actions.compaction !== undefined) return true;
  return false;
}

interface Kept {
  readonly index: number;
  readonly compaction: EventCompaction;
}

/** A compaction another one covers (a wider range, or the same range stored later) is left out, as in ADK. */
function subsumed(one: Kept, all: readonly Kept[]): boolean {
  const { startTimestamp: start, endTimestamp: end } = one.compaction;
  return all.some(
    (other) =>
      other.index !== one.index &&
      other.compaction.startTimestamp <= start &&
      other.compaction.endTimestamp >= end &&
      (other.compaction.startTimestamp < start ||
        other.compaction.endTimestamp > end ||
        other.index > one.index),
  );
}

/**
 * The events a prompt is built from once compactions apply (ADK `_process_compaction_events`): each
 * compaction no other one covers becomes a model event holding its summary, placed at its end timestamp
 * and attributed to `agentName` (so the agent reads its compacted history as its own earlier turns); raw
 * events inside any kept range are left out; the rest keep their order (by timestamp, ties by position).
 * Events without compactions come back as they are.
 */
export function applyCompactions(events: readonly Event[], agentName: string): readonly Event[] {
  const all: Kept[] = [];
  events.forEach((event, index) => {
    const compaction = compactionOf(event);
    if (compaction) all.push({ index, compaction });
  });
  if (all.length === 0) return events.filter((e) => e.actions.compaction === undefined);
  const kept = all.filter((one) => !subsumed(one, all));
  const ranges = kept.map(({ compaction }) => [compaction.startTimestamp, compaction.endTimestamp] as const);
  const covered = (ts: number): boolean => ranges.some(([start, end]) => start <= ts && ts <= end);
  const placed: { at: number; index: number; event: Event }[] = [];
  for (const { index, compaction } of kept) {
    const source = events[index];
    if (source === undefined) continue;
    placed.push({ at: compaction.endTimestamp, index, event: summaryEvent(source, compaction, agentName) });
  }
  events.forEach((event, index) => {
    if (event.actions.compaction === undefined && !covered(event.timestamp))
      placed.push({ at: event.timestamp, index, event });
  });
  placed.sort((a, b) => a.at - b.at || a.index - b.index);
  return placed.map((p) => p.event);
}

/** The summary as a model event of `agentName`, at the compaction's end. */
function summaryEvent(source: Event, compaction: EventCompaction, agentName: string): Event {
  const content: Content = { ...compaction.compactedContent, role: "model" };
  return {
    ...source,
    author: agentName,
    timestamp: compaction.endTimestamp,
    content,
  };
}
