/** ADK's state scopes (ADK-SEMANTICS §4.2). Only the leading prefix counts. */
export const APP_PREFIX = "app:";
export const USER_PREFIX = "user:";
export const TEMP_PREFIX = "temp:";

export type StateMap = Record<string, unknown>;

/** Whether `map` has any key (without listing them). */
export function hasKeys(map: StateMap): boolean {
  for (const _ in map) return true;
  return false;
}

export interface ScopedDelta {
  /** Keys without the `app:` prefix. */
  app: StateMap;
  /** Keys without the `user:` prefix. */
  user: StateMap;
  /** Session keys, unprefixed. */
  session: StateMap;
  /** `temp:` keys with their prefix: invocation memory only, never persisted. */
  temp: StateMap;
}

/** Splits a state delta by scope, the way ADK stores it. */
export function splitStateDelta(delta: StateMap): ScopedDelta {
  // Most events write no state: four new empty maps, without the entry lists (callers may write to them).
  if (!hasKeys(delta)) return { app: {}, user: {}, session: {}, temp: {} };
  // Built from entries (defined, never assigned), so no key can reach a prototype.
  const out: Record<keyof ScopedDelta, [string, unknown][]> = { app: [], user: [], session: [], temp: [] };
  for (const [key, value] of Object.entries(delta)) {
    if (key.startsWith(APP_PREFIX)) out.app.push([key.slice(APP_PREFIX.length), value]);
    else if (key.startsWith(USER_PREFIX)) out.user.push([key.slice(USER_PREFIX.length), value]);
    else if (key.startsWith(TEMP_PREFIX)) out.temp.push([key, value]);
    else out.session.push([key, value]);
  }
  return {
    app: Object.fromEntries(out.app),
    user: Object.fromEntries(out.user),
    session: Object.fromEntries(out.session),
    temp: Object.fromEntries(out.temp),
  };
}

/** The delta as it is persisted: everything but `temp:` keys. */
export function withoutTemp(delta: StateMap): StateMap {
  return Object.fromEntries(Object.entries(delta).filter(([key]) => !key.startsWith(TEMP_PREFIX)));
}

/** The state a reader sees: session keys, then `app:`/`user:` keys with their prefixes re-added. */
export function mergeScopedState(session: StateMap, app: StateMap, user: StateMap): StateMap {
  const merged: StateMap = { ...session };
  for (const [key, value] of Object.entries(app)) merged[APP_PREFIX + key] = value;
  for (const [key, value] of Object.entries(user)) merged[USER_PREFIX + key] = value;
  return merged;
}

/** A state scope kept outside the session: `app:` keys (one store per app), `user:` keys (per app and user). */
export type SharedScope = "app" | "user";

/** Both shared scopes: what code Baton cannot see into may touch. */
export const SHARED_SCOPES: readonly SharedScope[] = ["app", "user"];

/** The shared scopes that state keys (`app:x`, `user:y`, plain) belong to. */
export function scopesOfKeys(keys: Iterable<string>): SharedScope[] {
  const scopes = new Set<SharedScope>();
  for (const key of keys) {
    if (key.startsWith(APP_PREFIX)) scopes.add("app");
    else if (key.startsWith(USER_PREFIX)) scopes.add("user");
  }
  return SHARED_SCOPES.filter((scope) => scopes.has(scope));
}

/** The union of scope lists, in `SHARED_SCOPES` order. */
export function unionScopes(...lists: readonly (readonly SharedScope[])[]): SharedScope[] {
  return SHARED_SCOPES.filter((scope) => lists.some((list) => list.includes(scope)));
}
