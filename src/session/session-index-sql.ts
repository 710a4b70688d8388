/**
 * The indexes of sessions kept outside their own objects: a user's sessions in their `UserObject`, and who
 * owns each session id in the app's `AppObject` (the dev UI's trace view names a session without its user).
 */
import * as z from "zod";
import { Command, Query } from "../storage/sql.js";

export const USER_SESSIONS_SQL =
  "CREATE TABLE sessions (seq INTEGER PRIMARY KEY, session_id TEXT NOT NULL UNIQUE);";
export const SESSION_OWNERS_SQL =
  "CREATE TABLE session_owners (session_id TEXT NOT NULL, user_id TEXT NOT NULL, PRIMARY KEY (session_id, user_id));";

export const ADD_SESSION = new Command<[sessionId: string]>(
  "INSERT INTO sessions (session_id) VALUES (?) ON CONFLICT (session_id) DO NOTHING",
);
export const REMOVE_SESSION = new Command<[sessionId: string]>("DELETE FROM sessions WHERE session_id = ?");
export const SELECT_SESSIONS = new Query<[], { session_id: string }>(
  "SELECT session_id FROM sessions ORDER BY seq",
  z.object({ session_id: z.string() }),
);

export const ADD_OWNER = new Command<[sessionId: string, userId: string]>(
  "INSERT INTO session_owners (session_id, user_id) VALUES (?, ?) ON CONFLICT DO NOTHING",
);
export const REMOVE_OWNER = new Command<[sessionId: string, userId: string]>(
  "DELETE FROM session_owners WHERE session_id = ? AND user_id = ?",
);
export const SELECT_OWNERS = new Query<[sessionId: string], { user_id: string }>(
  "SELECT user_id FROM session_owners WHERE session_id = ? ORDER BY user_id",
  z.object({ user_id: z.string() }),
);
