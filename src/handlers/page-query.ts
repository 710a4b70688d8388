/**
 * Query parameters of the listing and reading routes (decision 046): a page's size, token and order, and
 * ADK's event window, each in camelCase or snake_case. The next page's token travels in headers, so the
 * body stays the plain JSON array ADK's dev UI and clients read.
 */
import type { Context } from "hono";
import * as z from "zod";
import { BatonError } from "../core/errors.js";
import { type EventPageRequest, pageSizeOf, type SessionPageRequest } from "../core/session-pages.js";
import type { EventWindow } from "../core/session-store.js";
import { idPageStart, idPageToken } from "../session/page-token.js";

const Count = z.coerce.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER);
const PageSize = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const Time = z.coerce.number().refine(Number.isFinite, "must be a finite number");
const Token = z.string().max(1024);
const Order = z.enum(["asc", "desc"]);

/** The first of `names` the query has, checked with `schema`; a 400 naming the parameter otherwise. */
function param<T>(c: Context, schema: z.ZodType<T>, ...names: string[]): T | undefined {
  for (const name of names) {
    const raw = c.req.query(name);
    if (raw === undefined || raw === "") continue;
    const parsed = schema.safeParse(raw);
    if (parsed.success) return parsed.data;
    throw new BatonError(
      "invalid_request",
      `Invalid query parameter ${name}: ${parsed.error.issues[0]?.message}`,
    );
  }
  return undefined;
}

/** `{ [name]: value }`, or nothing when `value` is absent. */
const given = <K extends string, T>(name: K, value: T | undefined): { [P in K]?: T } =>
  // SAFETY: a one-key object with the key `name` is a `{ [P in K]?: T }`.
  (value === undefined ? {} : { [name]: value }) as { [P in K]?: T };

/** `pageSize` (ADK TS's `limit`, `page_size`), `pageToken` (`page_token`) and `order` of a session listing. */
export const sessionPageQuery = (c: Context): SessionPageRequest => ({
  ...given("pageSize", param(c, PageSize, "pageSize", "page_size", "limit")),
  ...given("pageToken", param(c, Token, "pageToken", "page_token")),
  ...given("order", param(c, Order, "order")),
});

/** `pageSize` and `pageToken` of an event page. */
export const eventPageQuery = (c: Context): EventPageRequest => ({
  ...given("pageSize", param(c, PageSize, "pageSize", "page_size", "limit")),
  ...given("pageToken", param(c, Token, "pageToken", "page_token")),
});

/** ADK's `GetSessionConfig` as query parameters: `numRecentEvents` and `afterTimestamp` (float seconds). */
export const eventWindowQuery = (c: Context): EventWindow => ({
  ...given("numRecentEvents", param(c, Count, "numRecentEvents", "num_recent_events")),
  ...given("afterTimestamp", param(c, Time, "afterTimestamp", "after_timestamp")),
});

/** Names the next page in headers: the token itself and a `Link` to it (RFC 8288), for clients that page. */
export function nextPageHeaders(c: Context, token: string | undefined): void {
  if (token === undefined) return;
  const next = new URL(c.req.url);
  next.searchParams.delete("page_token");
  next.searchParams.set("pageToken", token);
  c.header("Next-Page-Token", token);
  c.header("Link", `<${next.pathname}${next.search}>; rel="next"`);
}

/** Ids a listing of eval sets or results answers per page by default, and at most. */
export const ID_PAGE_LIMITS = { defaultSize: 1000, maxSize: 10_000 } as const;

/**
 * A page of ids: `read` gets where it starts and one id more than it holds (to know whether more follow);
 * the page's ids are answered, the next page's token set in headers.
 */
export async function idPage(
  c: Context,
  read: (page: { after: string | undefined; limit: number }) => Promise<string[]>,
): Promise<string[]> {
  const { pageSize, pageToken } = eventPageQuery(c);
  const size = pageSizeOf(pageSize, ID_PAGE_LIMITS.defaultSize, ID_PAGE_LIMITS.maxSize);
  const ids = await read({ after: idPageStart(pageToken), limit: size + 1 });
  const page = ids.slice(0, size);
  const last = page.at(-1);
  nextPageHeaders(c, ids.length > size && last !== undefined ? idPageToken(last) : undefined);
  return page;
}
