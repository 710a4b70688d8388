import type { TaskRecord } from "../../core/task-store.js";
import type { SessionStoreEnv } from "../../session/do-store.js";
import type { SessionMeta } from "../../session/session-cache.js";
import { appObjectName } from "../../storage/object-names.js";
import { remote } from "../../storage/rpc-result.js";
import { taskSummaryOf } from "./task-summary.js";

/**
 * Tells the app's object (its task index) how a task of this session now stands, after the write committed.
 * A failed report is logged, not thrown: the task is stored, and its next write reports it again.
 */
export async function reportTask(env: unknown, session: SessionMeta, record: TaskRecord): Promise<void> {
  // SAFETY: a session object runs in a Worker whose env has the session bindings (`SessionStoreEnv`); APPS
  // is read as optional all the same, and a Worker without it has no index to keep.
  const apps = (env as Partial<Pick<SessionStoreEnv, "APPS">>).APPS;
  if (!apps) return;
  const entry = {
    ...taskSummaryOf(record.snapshot),
    taskId: record.taskId,
    userId: session.userId,
    seq: record.seq,
    snapshot: record.snapshot,
  };
  try {
    await remote(apps.getByName(appObjectName(session.appName))).indexTask(entry);
  } catch (error) {
    console.warn(`Task ${record.taskId} could not be indexed: ${String(error)}`);
  }
}
