import * as z from "zod";
import type { EventActions } from "../../core/event.js";
import { taskStateName } from "../protocol/task-state.js";
import { adkParts, modelContent, pauseForUser, roleOf, taskIds } from "./content-of.js";
import type { ConvertContext, EventDraft, ResponseItem } from "./response-item.js";

/** The ADK A2A extension: a peer that speaks it sends ADK's own event data in metadata (§5.4). */
export const ADK_EXTENSION_URI = "https://google.github.io/adk-docs/a2a/a2a-extension/";

const ActionsSchema = z.looseObject({ escalate: z.boolean().optional() });

const ownMetadata = (item: ResponseItem): Record<string, unknown> => {
  switch (item.kind) {
    case "message":
      return item.message.metadata ?? {};
    case "task":
      return item.task.metadata ?? {};
    default:
      return item.update.metadata ?? {};
  }
};

/**
 * Whether an item comes from a peer using the ADK extension: its metadata carries `adk_actions` or the
 * extension URI, or its message or artifact lists the URI among its extensions.
 */
export function usesAdkExtension(item: ResponseItem): boolean {
  const meta = ownMetadata(item);
  if ("adk_actions" in meta || ADK_EXTENSION_URI in meta) return true;
  const extensions =
    item.kind === "message"
      ? item.message.extensions
      : item.kind === "artifact"
        ? item.update.artifact.extensions
        : undefined;
  return extensions?.includes(ADK_EXTENSION_URI) ?? false;
}

/**
 * Of the actions a peer sends, only `escalate` is honoured (the JS ADK's allowlist, ADK-SEMANTICS §5.4,
 * A22): a remote agent never transfers inside this tree nor writes its state.
 */
export function trustedActions(meta: Record<string, unknown>): Partial<EventActions> {
  const parsed = ActionsSchema.safeParse(meta.adk_actions);
  return parsed.success && parsed.data.escalate !== undefined ? { escalate: parsed.data.escalate } : {};
}

const OBJECT = z.record(z.string(), z.unknown());
const restored = (meta: Record<string, unknown>): EventDraft => {
  const out: EventDraft = {};
  const grounding = OBJECT.safeParse(meta.adk_grounding_metadata);
  if (grounding.success) out.groundingMetadata = grounding.data;
  const citation = OBJECT.safeParse(meta.adk_citation_metadata);
  if (citation.success) out.citationMetadata = citation.data;
  const usage = OBJECT.safeParse(meta.adk_usage_metadata);
  if (usage.success) out.usageMetadata = usage.data;
  const custom = OBJECT.safeParse(meta.adk_custom_metadata);
  if (custom.success) out.customMetadata = custom.data;
  if (typeof meta.adk_error_code === "string") out.errorCode = meta.adk_error_code;
  return out;
};

const isPaused = (state: string | number | undefined) => {
  const name = taskStateName(state);
  return name === "input-required" || name === "auth-required";
};

/**
 * The ADK-extension conversion (ADK-SEMANTICS §5.4): a task's content is all its artifacts' parts, status
 * text counts only when the task waits on the user, no thought marking, and actions come from metadata
 * through the allowlist. An item with no parts and no actions gives no event.
 */
export function convertExtension(item: ResponseItem, ctx: ConvertContext): EventDraft | undefined {
  const meta = ownMetadata(item);
  const actions = trustedActions(meta);
  let draft: EventDraft;
  if (item.kind === "message") {
    const parts = adkParts(item.message.parts);
    draft = {
      content: { role: roleOf(item.message), parts },
      customMetadata: item.message.contextId ? { "a2a:context_id": item.message.contextId } : {},
    };
  } else if (item.kind === "artifact") {
    const { update } = item;
    draft = {
      ...restored(meta),
      content: modelContent(adkParts(update.artifact.parts)),
      ...(update.lastChunk ? {} : { partial: true }),
    };
    draft.customMetadata = { ...draft.customMetadata, ...taskIds(update.taskId, update.contextId) };
  } else {
    const status = item.kind === "task" ? item.task.status : item.update.status;
    const artifactParts = item.kind === "task" ? item.task.artifacts.flatMap((a) => adkParts(a.parts)) : [];
    const statusParts = isPaused(status.state) ? adkParts(status.message?.parts ?? []) : [];
    const paused = pauseForUser([...artifactParts, ...statusParts], status.state, ctx);
    const ids =
      item.kind === "task"
        ? taskIds(item.task.id, item.task.contextId)
        : taskIds(item.update.taskId, item.update.contextId);
    draft = {
      ...(paused.parts.length > 0 ? { content: modelContent(paused.parts) } : {}),
      ...(paused.longRunningToolIds ? { longRunningToolIds: paused.longRunningToolIds } : {}),
      customMetadata: ids,
    };
  }
  const hasParts = (draft.content?.parts?.length ?? 0) > 0;
  if (!hasParts && Object.keys(actions).length === 0) return undefined;
  return Object.keys(actions).length === 0 ? draft : { ...draft, actions };
}
