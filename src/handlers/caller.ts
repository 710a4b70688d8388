import { BatonError } from "../core/errors.js";
import { BATON_CALLERS_IN_WORDS, isReservedUserId } from "../core/reserved-users.js";

/**
 * Who is calling, as the auth middleware found out: a service token (full access, as before end-user
 * mode existed) or an end user's verified JWT, who may use only their own sessions (`userId` = `sub`),
 * in the apps the token allows, and never write `app:` state.
 */
export type Caller =
  | { kind: "service" }
  | { kind: "end-user"; subject: string; apps: ReadonlySet<string> | "all" };

export const SERVICE_CALLER: Caller = { kind: "service" };

/** The caller the auth middleware put on the context; a route mounted before auth has none. */
export function callerOf(c: { var: { caller?: Caller | undefined } }): Caller {
  const caller = c.var.caller;
  if (!caller) throw new BatonError("internal", "This route runs before authentication: it has no caller.");
  return caller;
}

/** Whether `caller` may use `appName` at all (end-user tokens may be scoped to some apps). */
export const mayUseApp = (caller: Caller, appName: string): boolean =>
  caller.kind === "service" || caller.apps === "all" || caller.apps.has(appName);

/** 403 unless `caller` may use `appName`. */
export function assertMayUseApp(caller: Caller, appName: string): void {
  if (!mayUseApp(caller, appName))
    throw new BatonError("forbidden", `This token is not allowed to use the app "${appName}".`);
}

/**
 * 403 unless `caller` may act as `userId` in `appName`: service tokens may, end users only as themselves,
 * and never as one of Baton's own callers (the registry in `core/reserved-users.ts`; decisions 029 and 048),
 * whatever their token's `sub` says.
 */
export function assertMayActAs(caller: Caller, appName: string, userId: string): void {
  assertMayUseApp(caller, appName);
  if (caller.kind === "end-user" && isReservedUserId(userId))
    throw new BatonError(
      "forbidden",
      `The user "${userId}" belongs to Baton's own callers (${BATON_CALLERS_IN_WORDS}): end-user tokens cannot use it.`,
    );
  if (caller.kind === "end-user" && caller.subject !== userId)
    throw new BatonError(
      "forbidden",
      `This token's subject is "${caller.subject}": it cannot use the sessions of user "${userId}".`,
    );
}

/** 403 for an end user: `what` takes a service token. */
export function assertService(caller: Caller, what: string): void {
  if (caller.kind !== "service") throw new BatonError("forbidden", `${what} needs a service token.`);
}

/** 403 when an end user sends an `app:` key (app state is shared by every user); names the key and where. */
export function assertNoAppState(
  caller: Caller,
  state: Readonly<Record<string, unknown>> | undefined,
  where: string,
): void {
  if (caller.kind === "service" || !state) return;
  const key = Object.keys(state).find((k) => k.startsWith("app:"));
  if (key !== undefined)
    throw new BatonError(
      "forbidden",
      `Refused state key "${key}" in ${where}: end-user tokens cannot change app: state.`,
    );
}
