import { env } from "cloudflare:workers";
import type { Session } from "../../../src/core/session.js";
import { DurableObjectSessionStore } from "../../../src/session/do-store.js";
import type { FuzzRequest } from "./requests.js";

const store = new DurableObjectSessionStore(env);

/** The (app, user, session) names a request carries in its path and body, as far as they can be read. */
export function namesIn(request: FuzzRequest, fallback: { app: string; user: string; session: string }) {
  const segments = request.path.split("?")[0]?.split("/") ?? [];
  const after = (name: string) => {
    const at = segments.indexOf(name);
    return at === -1 ? undefined : segments[at + 1];
  };
  let body: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(request.body ?? "{}");
    if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) body = { ...parsed };
  } catch {
    body = {}; // An unparseable body names nothing.
  }
  const str = (value: unknown) => (typeof value === "string" ? value : undefined);
  const decode = (value: string | undefined) => {
    try {
      return value === undefined ? undefined : decodeURIComponent(value);
    } catch {
      return value;
    }
  };
  return {
    app: decode(after("apps")) ?? str(body.appName ?? body.app_name) ?? fallback.app,
    user: decode(after("users")) ?? str(body.userId ?? body.user_id) ?? fallback.user,
    sessions: [decode(after("sessions")), str(body.sessionId ?? body.session_id), fallback.session].filter(
      (s): s is string => s !== undefined && s !== "",
    ),
  };
}

const brief = (session: Session) => ({
  id: session.id,
  events: session.events.map((e) => e.id),
  state: session.state,
  lastUpdateTime: session.lastUpdateTime,
});

/** What the store holds for these names: the user's session list, and each named or listed session whole. */
export async function digest(
  names: ReturnType<typeof namesIn>,
  base: { app: string; user: string; session: string },
) {
  const read = async <T>(work: () => Promise<T>): Promise<T | string> => {
    try {
      return await work();
    } catch (error) {
      // A name the store cannot hold (too long, say) reads the same way before and after.
      return `unreadable: ${error instanceof Error ? error.name : String(error)}`;
    }
  };
  const listed = await read(() => store.listSessions(names.app, names.user));
  const ids = new Set([
    ...names.sessions,
    ...(typeof listed === "string" ? [] : listed.sessions.map((s) => s.id)),
  ]);
  const sessions = await Promise.all(
    [...ids].map((sessionId) =>
      read(async () => {
        const session = await store.getSession({ appName: names.app, userId: names.user, sessionId });
        return session ? brief(session) : null;
      }),
    ),
  );
  const baseline = await read(async () => {
    const session = await store.getSession({ appName: base.app, userId: base.user, sessionId: base.session });
    return session ? brief(session) : null;
  });
  return JSON.stringify({
    listed: Array.isArray(listed) ? listed.map((s) => s.id).sort() : listed,
    sessions,
    baseline,
  });
}
