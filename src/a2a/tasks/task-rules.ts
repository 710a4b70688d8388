import type {
  TaskFeedEntry,
  TaskPhase,
  TaskRecord,
  TaskWrite,
  TaskWriteOptions,
  TaskWriteResult,
} from "../../core/task-store.js";

/** What `openTask` does with the task stored under that id (if any). */
export type OpenVerdict = "insert" | "resume" | Extract<TaskWriteResult, { ok: false }>["reason"];

/** A new id is inserted; an interrupted task is resumed; a terminal one is `closed`; an active one `stale`. */
export function judgeOpen(current: TaskRecord | undefined): OpenVerdict {
  if (!current) return "insert";
  if (current.phase === "interrupted") return "resume";
  return current.phase === "terminal" ? "closed" : "stale";
}

/** Whether a write may go ahead on the stored task. */
export function judgeWrite(
  current: TaskRecord | undefined,
  options: TaskWriteOptions,
): Extract<TaskWriteResult, { ok: false }> | null {
  if (!current) return { ok: false, reason: "missing" };
  if (current.phase === "terminal") return { ok: false, reason: "closed" };
  if (options.expectSeq !== undefined && options.expectSeq !== current.seq)
    return { ok: false, reason: "stale" };
  return null;
}

/** The record after a write: the next sequence number, the new snapshot and phase, the cancel flag kept. */
export function afterWrite(current: TaskRecord, write: TaskWrite, options: TaskWriteOptions): TaskRecord {
  return {
    ...current,
    seq: current.seq + 1,
    snapshot: write.snapshot,
    phase: write.phase,
    cancelRequested: current.cancelRequested || options.cancel === true,
  };
}

/** A stored update as followers see it. */
export const updateEntry = (
  seq: number | null,
  phase: TaskPhase,
  write: Pick<TaskWrite, "update">,
): TaskFeedEntry => ({
  kind: "update",
  seq,
  phase,
  update: write.update,
});

/** The first entry of a feed: the task as it stands. */
export const snapshotEntry = (record: TaskRecord): TaskFeedEntry => ({
  kind: "snapshot",
  seq: record.seq,
  phase: record.phase,
  snapshot: record.snapshot,
});

/** A feed ends after the entry that leaves the `active` phase. */
export const endsFeed = (entry: TaskFeedEntry): boolean => entry.phase !== "active";
