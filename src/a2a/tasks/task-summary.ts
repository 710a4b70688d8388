import * as z from "zod";
import type { TaskPayload, TaskSummary } from "../../core/task-store.js";

const SummarySchema = z.looseObject({
  contextId: z.string().optional(),
  status: z.looseObject({ state: z.string().optional(), timestamp: z.string().optional() }).optional(),
});

/** The task index's view of a snapshot; a field the snapshot lacks is empty (or 0). */
export function taskSummaryOf(snapshot: TaskPayload): TaskSummary {
  const parsed = SummarySchema.safeParse(snapshot);
  const task = parsed.success ? parsed.data : {};
  const time = Date.parse(task.status?.timestamp ?? "");
  return {
    contextId: task.contextId ?? "",
    state: task.status?.state ?? "",
    statusTime: Number.isNaN(time) ? 0 : time,
  };
}
