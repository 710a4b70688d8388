/**
 * The user ids Baton gives its own callers live in a namespace of their own, which an end user's token
 * can never name (decision 029): ids starting with `A2A_USER_` (A2A contexts, ADK's own spelling) or with
 * `baton:` (webhook hooks, schedules, a configured A2A user). End-user mode refuses a token whose `sub`
 * would name one of them (403), so no `sub` reaches another caller's sessions.
 */

/** ADK's user id of an A2A context: `A2A_USER_<contextId>`. */
export const A2A_USER_PREFIX = "A2A_USER_";
/** The prefix of every other user id Baton makes for its own callers. */
export const BATON_USER_PREFIX = "baton:";

/** The kinds of Baton's own callers that act as a user. */
export type ReservedUserKind = "webhook" | "schedule" | "a2a";

/** Whether `userId` belongs to Baton's own callers. */
export const isReservedUserId = (userId: string): boolean =>
  userId.startsWith(A2A_USER_PREFIX) || userId.startsWith(BATON_USER_PREFIX);

/**
 * The reserved user id a `kind` of caller acts as for `userId` (what a hook's `toTurn` or an app's config
 * names): `baton:<kind>:<userId>`, or `userId` itself when it is reserved already.
 * @example
 * reservedUserId("webhook", "github") // "baton:webhook:github"
 */
export const reservedUserId = (kind: ReservedUserKind, userId: string): string =>
  isReservedUserId(userId) ? userId : `${BATON_USER_PREFIX}${kind}:${userId}`;

/** The user of an A2A context's session. */
export const a2aContextUserId = (contextId: string): string => `${A2A_USER_PREFIX}${contextId}`;
