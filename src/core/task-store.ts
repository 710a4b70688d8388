import * as z from "zod";
import type { SessionKey } from "./session.js";

/**
 * Where a task stands, as far as storage cares. `active`: a turn runs for it. `interrupted`: it waits for
 * the client (A2A `input-required`/`auth-required`). `terminal`: it will never change again.
 */
export const TaskPhaseSchema = z.enum(["active", "interrupted", "terminal"]);
export type TaskPhase = z.infer<typeof TaskPhaseSchema>;

/** A task lives in its session's store, so its key is the session's key plus the task id. */
export interface TaskKey extends SessionKey {
  taskId: string;
}

/** JSON data the store keeps without looking inside (A2A task snapshots and updates). */
export const TaskPayloadSchema = z.record(z.string(), z.unknown());
export type TaskPayload = z.infer<typeof TaskPayloadSchema>;

/** A stored task: its latest snapshot, the sequence number of its last stored update, and its flags. */
export const TaskRecordSchema = z.object({
  taskId: z.string(),
  /** The invocation that runs (or last ran) for the task. */
  invocationId: z.string(),
  phase: TaskPhaseSchema,
  /** 0 before any update; each stored update takes the next number. */
  seq: z.number().int(),
  snapshot: TaskPayloadSchema,
  /** Set by a cancel: appends of `invocationId` are refused from then on (`turn_canceled`). */
  cancelRequested: z.boolean(),
});
export type TaskRecord = z.infer<typeof TaskRecordSchema>;

/** One write: the new snapshot and phase, and the update that led to it (appended to the task's log). */
export interface TaskWrite {
  snapshot: TaskPayload;
  phase: TaskPhase;
  update: TaskPayload;
}

export interface TaskWriteOptions {
  /** Refuse (`stale`) unless the stored `seq` is still this: a read-modify-write from a second writer. */
  expectSeq?: number;
  /** Also flag the task's invocation as canceled, in the same transaction. */
  cancel?: boolean;
}

/** `closed`: the task is already terminal. `stale`: `expectSeq` no longer matches. */
export type TaskWriteResult =
  | { ok: true; record: TaskRecord }
  | { ok: false; reason: "closed" | "stale" | "missing" };

/**
 * What `follow` yields: first the task as it stands (`snapshot`), then each update written after it, in
 * order. Updates published without storing (partial text) have `seq: null`. The sequence ends after an
 * entry whose phase is not `active`.
 */
export const TaskFeedEntrySchema = z.union([
  z.object({
    kind: z.literal("snapshot"),
    seq: z.number().int(),
    phase: TaskPhaseSchema,
    snapshot: TaskPayloadSchema,
  }),
  z.object({
    kind: z.literal("update"),
    seq: z.number().int().nullable(),
    phase: TaskPhaseSchema,
    update: TaskPayloadSchema,
  }),
]);
export type TaskFeedEntry = z.infer<typeof TaskFeedEntrySchema>;

/**
 * What the app's task index keeps of a task, read from its snapshot (an A2A 1.0 `Task` in ProtoJSON): its
 * context, its state's name and its status time in ms (0 when the snapshot has none).
 */
export interface TaskSummary {
  contextId: string;
  state: string;
  statusTime: number;
}

/** Where a page ends: the last task's status time and id (pages run newest first, ids breaking ties). */
export const TaskCursorSchema = z.object({ statusTime: z.number().int(), taskId: z.string() });
export type TaskCursor = z.infer<typeof TaskCursorSchema>;

/** One app's tasks, filtered, newest status first; every filter is optional but `appName`. */
export interface TaskListQuery {
  appName: string;
  /** Only this user's tasks (an end user lists their own). */
  userId?: string;
  contextId?: string;
  /** The state's ProtoJSON name (`TASK_STATE_WORKING`). */
  state?: string;
  /** Only tasks whose status time is at or after this (ms). */
  statusTimeFrom?: number;
  pageSize: number;
  /** The previous page's `next`. */
  after?: TaskCursor;
}

/** A page of snapshots, how many tasks match in all, and where the next page starts (`null`: none). */
export interface TaskListPage {
  snapshots: TaskPayload[];
  totalSize: number;
  next: TaskCursor | null;
}

/**
 * Where a task's changes are POSTed (an A2A push notification config), kept with the task. `version` is the
 * A2A version it was set over: each delivery takes that version's shape.
 */
export const PushConfigSchema = z.object({
  id: z.string(),
  url: z.string(),
  /** Sent as `X-A2A-Notification-Token` ("" for none). */
  token: z.string(),
  /** Sent as `Authorization: <scheme> <credentials>`. */
  authentication: z.object({ scheme: z.string(), credentials: z.string() }).nullable(),
  version: z.string(),
});
export type PushConfig = z.infer<typeof PushConfigSchema>;

/** At most this many push configs per task: each stored write of the task is one delivery per config. */
export const MAX_PUSH_CONFIGS_PER_TASK = 10;

/**
 * One task write to deliver to one config (a queue message: ids only, since a snapshot can outgrow a
 * message, and the config's secrets stay in the session's storage). `seq` is the write's.
 */
export const PushDeliverySchema = z.object({
  appName: z.string(),
  userId: z.string(),
  sessionId: z.string(),
  taskId: z.string(),
  configId: z.string(),
  seq: z.number().int(),
});
export type PushDelivery = z.infer<typeof PushDeliverySchema>;

/** A stored task write for one of its configs, as a store without a queue hands it to its push delivery. */
export interface PushNotice {
  key: TaskKey;
  config: PushConfig;
  record: TaskRecord;
}

/** `saved`; `missing`: no such task; `full`: the task has `MAX_PUSH_CONFIGS_PER_TASK` configs already. */
export type PushConfigSaved = "saved" | "missing" | "full";

/**
 * A2A tasks kept beside a session's events (in the session's Durable Object on Workers), so any isolate can
 * read, cancel and follow them. Payloads are opaque JSON here; the A2A layer owns their shape.
 */
export interface TaskStore {
  /**
   * Records a new task run by `invocationId`, or, for a task that exists and is `interrupted`, attaches
   * the invocation that resumes it. `missing` when the session does not exist, `closed` when the task is
   * terminal, `stale` when it is already active.
   */
  openTask(key: TaskKey, invocationId: string, write: TaskWrite): Promise<TaskWriteResult>;
  /** `null` when the task (or its session) does not exist. */
  getTask(key: TaskKey): Promise<TaskRecord | null>;
  /** Stores the update and the new snapshot unless the task is terminal (or `expectSeq` is stale). */
  writeTask(key: TaskKey, write: TaskWrite, options?: TaskWriteOptions): Promise<TaskWriteResult>;
  /** Hands an update to the current followers without storing it (partial text while streaming). */
  publishTask(key: TaskKey, update: TaskPayload): Promise<void>;
  /** The task as it stands, then its live updates; `null` when it does not exist. Stop early with `return()`. */
  followTask(key: TaskKey): Promise<AsyncGenerator<TaskFeedEntry> | null>;
  /** The id of the session's `active` task, if one is. */
  activeTask(key: SessionKey): Promise<string | null>;
  /** A page of the app's tasks from its index (kept as tasks are written), never by reading sessions. */
  listTasks(query: TaskListQuery): Promise<TaskListPage>;
  /**
   * Stores a push config with the task (replacing the task's config of the same id). From then on each
   * stored write of the task is handed to the store's push delivery (a queue on Workers).
   */
  savePushConfig(key: TaskKey, config: PushConfig): Promise<PushConfigSaved>;
  /** The task's push configs in the order they were first saved; `null` when the task does not exist. */
  pushConfigs(key: TaskKey): Promise<PushConfig[] | null>;
  /** Deletes one of the task's configs (one that is not there is no error); `false`: no such task. */
  deletePushConfig(key: TaskKey, configId: string): Promise<boolean>;
}
