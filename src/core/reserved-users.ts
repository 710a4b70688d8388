import { BatonError } from "./errors.js";
import { ID_LIMITS, idProblem } from "./limits.js";

/**
 * The registry of the users Baton itself acts as (decisions 029 and 048). Whenever Baton, not a client,
 * chooses the user of a session (a webhook delivery, a cron firing, an email thread, an MCP call made with
 * a service token, an A2A context, an eval run), that user lives in a namespace of its own: ids starting
 * with `A2A_USER_` (A2A contexts, ADK's own spelling) or `baton:<caller>:` (every other caller, one name
 * each below). End-user mode refuses a token whose `sub` would name one of them (403), so no `sub` reaches
 * another caller's sessions, and no caller of Baton's can store under a plain id.
 */

/** ADK's user id of an A2A context: `A2A_USER_<contextId>`. */
export const A2A_USER_PREFIX = "A2A_USER_";
/** The prefix of every other user id Baton makes for its own callers. */
export const BATON_USER_PREFIX = "baton:";

/** Each caller Baton acts as, with what it is in words (for refusals and docs). A new caller is one line. */
export const BATON_CALLERS = {
  webhook: "webhook deliveries",
  schedule: "cron schedules",
  email: "email threads",
  mcp: "MCP calls made with a service token",
  a2a: "A2A contexts",
  eval: "eval runs",
} as const;

/** The kinds of Baton's own callers that act as a user. */
export type ReservedUserKind = keyof typeof BATON_CALLERS;

/** Baton's own callers, in words: "webhook deliveries, cron schedules, …". */
export const BATON_CALLERS_IN_WORDS = Object.values(BATON_CALLERS).join(", ");

/** Whether `userId` belongs to Baton's own callers. */
export const isReservedUserId = (userId: string): boolean =>
  userId.startsWith(A2A_USER_PREFIX) || userId.startsWith(BATON_USER_PREFIX);

/**
 * The reserved user id a `kind` of caller acts as for `userId` (what a hook's `toTurn`, a schedule, an email
 * route or an option names): `baton:<kind>:<userId>`, or `userId` itself when it is reserved already.
 * @example
 * reservedUserId("webhook", "github") // "baton:webhook:github"
 */
export const reservedUserId = (kind: ReservedUserKind, userId: string): string =>
  isReservedUserId(userId) ? userId : `${BATON_USER_PREFIX}${kind}:${userId}`;

/**
 * `reservedUserId`, refused (`invalid_request`, naming `where`) when the id it makes breaks the user id limit:
 * what every place that makes a session key for one of Baton's callers uses.
 */
export function reservedUserKey(kind: ReservedUserKind, userId: string, where: string): string {
  const reserved = reservedUserId(kind, userId);
  const problem = idProblem(ID_LIMITS.userId, reserved);
  if (problem !== null) throw new BatonError("invalid_request", `${where}: userId: ${problem}`);
  return reserved;
}

/** The user of an A2A context's session. */
export const a2aContextUserId = (contextId: string): string => `${A2A_USER_PREFIX}${contextId}`;
