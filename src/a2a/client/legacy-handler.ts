import { taskStateName } from "../protocol/task-state.js";
import {
  adkParts,
  isAgentMessage,
  markThought,
  modelContent,
  pauseForUser,
  roleOf,
  taskIds,
} from "./content-of.js";
import type { ConvertContext, EventDraft, ResponseItem } from "./response-item.js";

const isInProgress = (state: string | number | undefined): boolean => {
  const name = taskStateName(state);
  return name === "submitted" || name === "working";
};

/**
 * ADK's legacy conversion of one reply item (ADK-SEMANTICS §5.3), for plain A2A peers. Failed tasks are
 * marked afterwards, the same for every converter (§5.7).
 */
export function convertLegacy(item: ResponseItem, ctx: ConvertContext): EventDraft | undefined {
  switch (item.kind) {
    case "message": {
      const { message } = item;
      return {
        content: { role: roleOf(message), parts: adkParts(message.parts) },
        customMetadata: message.contextId ? { "a2a:context_id": message.contextId } : {},
      };
    }
    case "task": {
      const { task } = item;
      const lastArtifact = task.artifacts.at(-1);
      const statusParts = task.status.message?.parts ?? [];
      const source =
        lastArtifact?.parts ??
        (statusParts.length > 0 ? statusParts : task.history.filter(isAgentMessage).at(-1)?.parts);
      const meta = taskIds(task.id, task.contextId);
      if (source === undefined) return { customMetadata: meta };
      return { ...statusContent(adkParts(source), task.status.state, ctx), customMetadata: meta };
    }
    case "status": {
      const { update } = item;
      const parts = update.status.message?.parts ?? [];
      if (parts.length === 0) return undefined;
      return {
        ...statusContent(adkParts(parts), update.status.state, ctx),
        customMetadata: taskIds(update.taskId, update.contextId),
      };
    }
    case "artifact": {
      const { update } = item;
      if (update.artifact.parts.length === 0) return undefined;
      return {
        content: modelContent(adkParts(update.artifact.parts)),
        ...(update.lastChunk ? {} : { partial: true }),
        customMetadata: taskIds(update.taskId, update.contextId),
      };
    }
  }
}

function statusContent(
  parts: ReturnType<typeof adkParts>,
  state: string | number | undefined,
  ctx: ConvertContext,
) {
  if (isInProgress(state)) return { content: modelContent(markThought(parts)) };
  const paused = pauseForUser(parts, state, ctx);
  return {
    content: modelContent(paused.parts),
    ...(paused.longRunningToolIds ? { longRunningToolIds: paused.longRunningToolIds } : {}),
  };
}
