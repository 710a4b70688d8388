import * as z from "zod";
import { BlobSchema, ContentSchema, wireObject } from "../core/content.js";

/**
 * ADK's `LiveRequest` as a `/run_live` client sends it, one JSON text message each (camelCase or snake_case,
 * as ADK's clients and the dev UI write it): a whole `content` (the model answers it at once), a real-time
 * `blob` (audio or a video frame, base64), the caller's activity start or end, or `close`.
 */
export const LiveRequestSchema = wireObject({
  content: ContentSchema.optional(),
  blob: BlobSchema.optional(),
  activityStart: z.record(z.string(), z.unknown()).optional(),
  activityEnd: z.record(z.string(), z.unknown()).optional(),
  close: z.boolean().optional(),
});
export type LiveRequest = z.infer<typeof LiveRequestSchema>;

/** A message a live call refuses, with the WebSocket close code and reason it ends the call with. */
export interface LiveRefusal {
  code: number;
  reason: string;
}

/** Close codes of `/run_live` (RFC 6455 §7.4.1; 4000-4999 are the application's own). */
export const LIVE_CLOSE = {
  /** The call ended as asked (`close`), or by its idle timeout. */
  normal: 1000,
  /** A message that is not a `LiveRequest`, or binary where text is expected. */
  unsupported: 1003,
  /** A message past `LIVE_MAX_MESSAGE_BYTES`. */
  tooBig: 1009,
  /** The model or the call failed; the reason says how. */
  internal: 1011,
  /** A newer live connection to the same session took over. */
  replaced: 4001,
  /** No message came for `LIVE_IDLE_TIMEOUT_MS`. */
  idle: 4008,
} as const;

/** A close reason fits in a control frame: at most 123 bytes of UTF-8. */
export function closeReason(text: string): string {
  const bytes = new TextEncoder().encode(text);
  if (bytes.length <= 123) return text;
  return `${new TextDecoder().decode(bytes.slice(0, 120)).replace(/\uFFFD$/, "")}...`;
}

/** One client message, read: the request, or why the call ends. */
export function readLiveRequest(message: string | ArrayBuffer, maxBytes: number): LiveRequest | LiveRefusal {
  if (typeof message !== "string")
    return { code: LIVE_CLOSE.unsupported, reason: "A live request is a JSON text message." };
  // A string's UTF-8 length is at most three bytes per UTF-16 unit: only a long one is measured.
  if (message.length * 3 > maxBytes && new TextEncoder().encode(message).length > maxBytes)
    return { code: LIVE_CLOSE.tooBig, reason: `A live request may hold at most ${maxBytes} bytes.` };
  let json: unknown;
  try {
    json = JSON.parse(message);
  } catch {
    return { code: LIVE_CLOSE.unsupported, reason: "A live request must be JSON." };
  }
  const parsed = LiveRequestSchema.safeParse(json);
  if (!parsed.success)
    return {
      code: LIVE_CLOSE.unsupported,
      reason: closeReason(`Not a LiveRequest: ${parsed.error.issues[0]?.message}`),
    };
  return parsed.data;
}

/** What a `/run_live` query asks of the call (ADK's web server's query parameters). */
export interface LiveOptions {
  responseModalities: ("TEXT" | "AUDIO")[];
  proactiveAudio: boolean;
  affectiveDialog: boolean;
  sessionResumption: boolean;
  /** Accepted and not honoured: Baton does not save the call's audio (docs/live.md). */
  saveLiveBlob: boolean;
}

const flag = (query: URLSearchParams, name: string): boolean => {
  const value = query.get(name)?.toLowerCase();
  return value === "true" || value === "1";
};

/**
 * The call's options from the query: `modalities` repeated or comma-separated (`TEXT`, `AUDIO`; ADK's
 * default is audio), and ADK 2.x's flags. `undefined` for an unknown modality.
 */
export function liveOptionsOf(query: URLSearchParams): LiveOptions | string {
  const asked = query
    .getAll("modalities")
    .flatMap((m) => m.split(","))
    .map((m) => m.trim().toUpperCase());
  const modalities = asked.filter((m) => m !== "");
  const unknown = modalities.find((m) => m !== "TEXT" && m !== "AUDIO");
  if (unknown !== undefined) return `Unknown modality "${unknown}": use TEXT or AUDIO.`;
  return {
    responseModalities: modalities.length > 0 ? [...new Set(modalities as ("TEXT" | "AUDIO")[])] : ["AUDIO"],
    proactiveAudio: flag(query, "proactive_audio"),
    affectiveDialog: flag(query, "enable_affective_dialog"),
    sessionResumption: flag(query, "enable_session_resumption"),
    saveLiveBlob: flag(query, "save_live_blob"),
  };
}
