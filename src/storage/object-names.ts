/**
 * The names Durable Objects are addressed by: the JSON of their key tuple, so no two keys share a name.
 * One session object per (app, user, session), one user object per (app, user), one app object per app.
 */
import type { SessionKey } from "../core/session.js";

export const sessionObjectName = (key: SessionKey): string =>
  JSON.stringify([key.appName, key.userId, key.sessionId]);

export const userObjectName = (appName: string, userId: string): string => JSON.stringify([appName, userId]);

export const appObjectName = (appName: string): string => JSON.stringify([appName]);
