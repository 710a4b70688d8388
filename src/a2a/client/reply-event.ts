import type { InvocationContext } from "../../agents/invocation-context.js";
import type { Event } from "../../core/event.js";
import type { A2aMessage } from "../protocol/a2a-objects.js";
import { convertExtension, usesAdkExtension } from "./extension-handler.js";
import { markFailedTask } from "./failed-task.js";
import { convertLegacy } from "./legacy-handler.js";
import {
  type ConvertContext,
  type ResponseConverter,
  type ResponseItem,
  responseOf,
} from "./response-item.js";

/** Hooks around the remote call (ADK `request_interceptors`). */
export interface RemoteA2aInterceptor {
  /** Rewrites the outgoing message, or returns an event to answer with instead of calling the peer. */
  beforeRequest?(ctx: InvocationContext, message: A2aMessage): Promise<A2aMessage | Event | undefined>;
  /** Sees each event after conversion and failed-task marking; returns it (changed or not) or `null` to drop it. */
  afterRequest?(ctx: InvocationContext, event: Event, item: ResponseItem): Promise<Event | null | undefined>;
}

export const isEvent = (value: A2aMessage | Event): value is Event =>
  "invocationId" in value && "author" in value;

export interface ReplyEventOptions {
  converters?: Partial<Record<ResponseItem["kind"], ResponseConverter>> | undefined;
  interceptors?: readonly RemoteA2aInterceptor[] | undefined;
  convertCtx: ConvertContext;
}

/**
 * One reply item as an event (ADK-SEMANTICS §5.3, §5.4, §5.7): the converter (a custom one, else the
 * ADK-extension or the legacy one), the failed-task mark, the `a2a:*` keys, then the after-request
 * interceptors, which may change or drop it. `undefined` when there is no event.
 */
export async function replyEvent(
  ctx: InvocationContext,
  item: ResponseItem,
  message: A2aMessage,
  options: ReplyEventOptions,
): Promise<Event | undefined> {
  const converter =
    options.converters?.[item.kind] ?? (usesAdkExtension(item) ? convertExtension : convertLegacy);
  const draft = markFailedTask(item, converter(item, options.convertCtx));
  if (draft === undefined) return undefined;
  let event: Event | null = ctx.newEvent({
    ...draft,
    customMetadata: {
      ...draft.customMetadata,
      ...itemIds(item),
      "a2a:request": message,
      "a2a:response": responseOf(item),
    },
  });
  for (const interceptor of options.interceptors ?? []) {
    if (event === null) break;
    const result: Event | null | undefined = await interceptor.afterRequest?.(ctx, event, item);
    if (result !== undefined) event = result;
  }
  return event ?? undefined;
}

/** `a2a:task_id` / `a2a:context_id` for every event of a task item, also one the marking created. */
function itemIds(item: ResponseItem): Record<string, unknown> {
  if (item.kind === "message")
    return item.message.contextId ? { "a2a:context_id": item.message.contextId } : {};
  const contextId = item.kind === "task" ? item.task.contextId : item.update.contextId;
  const taskId = item.kind === "task" ? item.task.id : item.update.taskId;
  return { "a2a:task_id": taskId, ...(contextId ? { "a2a:context_id": contextId } : {}) };
}
