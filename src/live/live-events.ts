import type { Content, Part } from "../core/content.js";
import type { Event, NewEvent } from "../core/event.js";
import { newFunctionCallId } from "../core/ids.js";
import type { LiveResponse } from "../core/live-model.js";
import type { IdSource } from "../core/ports.js";

/** An event's fields from one live response: what `InvocationContext.newEvent` takes. */
export type LiveEventFields = Omit<NewEvent, "invocationId" | "author" | "branch">;

/**
 * The event fields of a live response (ADK's `LlmResponse` → `Event` of a live flow), or `undefined` for
 * one that carries nothing a client reads (resumption updates and `goAway` are the call's own business).
 * A whole function call without an id gets ADK's `adk-` id, as a turn's do.
 */
export function liveEventFields(response: LiveResponse, ids: IdSource): LiveEventFields | undefined {
  const parts = (response.content?.parts ?? []).map(
    (p): Part =>
      p.functionCall && !p.functionCall.id && !response.partial
        ? { ...p, functionCall: { ...p.functionCall, id: newFunctionCallId(ids) } }
        : p,
  );
  const fields: LiveEventFields = {
    ...(parts.length > 0 ? { content: { role: response.content?.role ?? "model", parts } } : {}),
    ...(response.partial ? { partial: true } : {}),
    ...(response.turnComplete ? { turnComplete: true } : {}),
    ...(response.interrupted ? { interrupted: true } : {}),
    ...(response.inputTranscription ? { inputTranscription: response.inputTranscription } : {}),
    ...(response.outputTranscription ? { outputTranscription: response.outputTranscription } : {}),
    ...(response.errorCode !== undefined ? { errorCode: response.errorCode } : {}),
    ...(response.errorMessage !== undefined ? { errorMessage: response.errorMessage } : {}),
    ...(response.usageMetadata !== undefined ? { usageMetadata: response.usageMetadata } : {}),
  };
  return Object.keys(fields).length > 0 ? fields : undefined;
}

const isAudio = (part: Part): boolean => part.inlineData?.mimeType.startsWith("audio/") === true;

/**
 * Whether a live call stores the event (as ADK's live flow saves them): whole text and function calls, a
 * finished transcript (as text content, so the next turn's history holds what was said), errors. Partial
 * pieces, audio (`save_live_blob` is not honoured) and bare control marks (`turnComplete`, `interrupted`)
 * go to the client only.
 */
export function storedForm(event: Event): Event | undefined {
  if (event.partial) return undefined;
  if (event.errorCode !== undefined) return event;
  const parts = (event.content?.parts ?? []).filter((p) => !isAudio(p));
  if (parts.length > 0)
    return parts.length === event.content?.parts?.length ? event : withParts(event, parts);
  const transcript = event.inputTranscription ?? event.outputTranscription;
  if (transcript?.finished && transcript.text) {
    const role = event.inputTranscription ? "user" : "model";
    return withParts(event, [{ text: transcript.text }], role);
  }
  return undefined;
}

const withParts = (event: Event, parts: Part[], role?: string): Event => {
  const content: Content = { role: role ?? event.content?.role ?? "model", parts };
  return { ...event, content };
};
