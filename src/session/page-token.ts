/**
 * Page tokens: where the last page ended, as opaque base64url text. A session listing's position is the
 * last session's (`lastUpdateTime`, sequence) in the listing's order; an event page's is the last event's
 * append sequence. Both are keys of the stored order, so a page after them is one range read, and rows
 * added meanwhile land before the position (a newer update) or after it, never twice.
 */
import * as z from "zod";
import { BatonError } from "../core/errors.js";
import type { SessionPageRequest } from "../core/session-pages.js";

export interface SessionCursor {
  order: "asc" | "desc";
  /** The last listed session's `lastUpdateTime` as the index ordered it. */
  time: number;
  /** Its sequence in the index: ties of `time` are ordered by it, in the same direction. */
  seq: number;
}

const SessionTokenSchema = z.object({ o: z.enum(["asc", "desc"]), t: z.number(), s: z.number().int() });
const EventTokenSchema = z.object({ e: z.number().int().nonnegative() });
const IdTokenSchema = z.object({ a: z.string().max(512) });

const encode = (value: unknown): string =>
  btoa(JSON.stringify(value)).replaceAll("+", "-").replaceAll("/", "_").replaceAll("=", "");

function decode<T>(token: string, schema: z.ZodType<T>): T {
  const refused = () =>
    new BatonError("invalid_request", "Invalid page token: pass the nextPageToken as given.");
  if (token.length > 256 || !/^[A-Za-z0-9_-]*$/.test(token)) throw refused();
  try {
    const parsed = schema.safeParse(JSON.parse(atob(token.replaceAll("-", "+").replaceAll("_", "/"))));
    if (parsed.success) return parsed.data;
  } catch (error) {
    if (!(error instanceof SyntaxError) && !(error instanceof DOMException)) throw error;
  }
  throw refused();
}

export const sessionPageToken = (cursor: SessionCursor): string =>
  encode({ o: cursor.order, t: cursor.time, s: cursor.seq });

/** The order and the position after which the page starts (`null`: the first page). */
export function sessionPageStart(request: SessionPageRequest): {
  order: "asc" | "desc";
  after: SessionCursor | null;
} {
  if (request.pageToken === undefined || request.pageToken === "")
    return { order: request.order ?? "desc", after: null };
  const { o, t, s } = decode(request.pageToken, SessionTokenSchema);
  return { order: o, after: { order: o, time: t, seq: s } };
}

export const eventPageToken = (seq: number): string => encode({ e: seq });

/** The append sequence after which the page starts (0: from the first event). */
export const eventPageStart = (token: string | undefined): number =>
  token === undefined || token === "" ? 0 : decode(token, EventTokenSchema).e;

/** A page of ids (eval sets, eval results) ends at its last id; the next starts after it. */
export const idPageToken = (lastId: string): string => encode({ a: lastId });

export const idPageStart = (token: string | undefined): string | undefined =>
  token === undefined || token === "" ? undefined : decode(token, IdTokenSchema).a;
