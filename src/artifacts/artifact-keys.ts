import { type ArtifactRef, type ArtifactScopeKey, sessionOf } from "../core/artifacts.js";

/*
 * Where a version lives in a blob store, in ADK's canonical URI layout with each name URI-encoded (so a
 * `/` in a filename cannot reach into another one's keys):
 *   apps/<app>/users/<user>/sessions/<session>/artifacts/<filename>/versions/<n>   (a session's)
 *   apps/<app>/users/<user>/artifacts/<filename>/versions/<n>                      (a `user:` name)
 */

const enc = encodeURIComponent;

const userPrefix = (appName: string, userId: string) => `apps/${enc(appName)}/users/${enc(userId)}/`;

/** The prefix of every artifact of the session (`sessionId`), or of the user's `user:` artifacts. */
export function scopePrefix(scope: ArtifactScopeKey, sessionId: string | undefined): string {
  const user = userPrefix(scope.appName, scope.userId);
  return sessionId === undefined ? `${user}artifacts/` : `${user}sessions/${enc(sessionId)}/artifacts/`;
}

/** The prefix of every version of one artifact. */
export const versionsPrefix = (ref: ArtifactRef): string =>
  `${scopePrefix(ref, sessionOf(ref))}${enc(ref.filename)}/versions/`;

export const versionKey = (ref: ArtifactRef, version: number): string => `${versionsPrefix(ref)}${version}`;

/** The filename and version of a key under `prefix` (a scope prefix); `undefined` for a stray key. */
export function parseKey(prefix: string, key: string): { filename: string; version: number } | undefined {
  const [name, versions, number, ...rest] = key.slice(prefix.length).split("/");
  if (name === undefined || versions !== "versions" || number === undefined || rest.length > 0)
    return undefined;
  const version = Number(number);
  if (!Number.isSafeInteger(version) || version < 0) return undefined;
  return { filename: decodeURIComponent(name), version };
}
