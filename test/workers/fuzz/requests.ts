import type { Random } from "./prng.js";
import { PROTOCOL_TEMPLATES, PROTOTYPE_NAMES } from "./protocol-templates.js";
import { deepValue, HOSTILE_KEYS, randomValue } from "./values.js";

/** One fuzzed request, and what it names (for the store digest). */
export interface FuzzRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** The endpoint template it was made from, for the report. */
  endpoint: string;
}

/** What the fuzz knows exists: the app, users, their sessions and events, and the bearer tokens to try. */
export interface World {
  app: string;
  users: readonly string[];
  sessions: readonly string[];
  events: readonly string[];
  /** `Authorization` values: service token, end users' JWTs, expired and forged ones, garbage. */
  authorizations: readonly (string | null)[];
}

export interface Template {
  endpoint: string;
  method: string;
  path: (w: World, r: Random) => string;
  body?: (w: World, r: Random) => unknown;
  headers?: (r: Random) => Record<string, string>;
}

const text = (t: string) => ({ role: "user", parts: [{ text: t }] });

const runBody = (w: World, r: Random) => ({
  appName: w.app,
  userId: r.pick(w.users),
  sessionId: r.pick(w.sessions),
  newMessage: text(r.pick(["hi", "what's the weather in Paris?", "refund please"])),
  ...(r.chance(0.3) ? { streaming: r.chance(0.5) } : {}),
  ...(r.chance(0.3) ? { stateDelta: { [r.pick(["k", "user:k", "app:k", "temp:k"])]: randomValue(r) } } : {}),
});

const sessionsOf = (w: World, r: Random) => `/apps/${w.app}/users/${r.pick(w.users)}/sessions`;
const sessionOf = (w: World, r: Random) => `${sessionsOf(w, r)}/${r.pick(w.sessions)}`;

/** Every endpoint Baton serves, each as a valid request the mutations start from. */
const ADK_TEMPLATES: readonly Template[] = [
  { endpoint: "GET /health", method: "GET", path: () => "/health" },
  { endpoint: "GET /version", method: "GET", path: () => "/version" },
  {
    endpoint: "GET /list-apps",
    method: "GET",
    path: (_w, r) => (r.chance(0.5) ? "/list-apps?detailed=true" : "/list-apps"),
  },
  { endpoint: "GET sessions", method: "GET", path: sessionsOf },
  {
    endpoint: "POST sessions",
    method: "POST",
    path: sessionsOf,
    body: (w, r) => ({
      sessionId: r.chance(0.1) ? r.pick(LONG_IDS) : `${r.pick(w.sessions)}-${r.int(3)}`,
      state: { greeting: "hi", "user:tone": "warm" },
      events: r.chance(0.3)
        ? [
            {
              id: `e-${r.int(1000)}`,
              invocationId: "i-1",
              author: "user",
              timestamp: 1,
              content: text("seed"),
            },
          ]
        : [],
    }),
  },
  { endpoint: "GET session", method: "GET", path: sessionOf },
  {
    endpoint: "PATCH session",
    method: "PATCH",
    path: sessionOf,
    body: (_w, r) => ({ stateDelta: { n: r.int(9) } }),
  },
  { endpoint: "DELETE session", method: "DELETE", path: (w, r) => `${sessionsOf(w, r)}/gone-${r.int(5)}` },
  { endpoint: "POST /run", method: "POST", path: () => "/run", body: runBody },
  { endpoint: "POST /run_sse", method: "POST", path: () => "/run_sse", body: runBody },
  { endpoint: "GET build_graph", method: "GET", path: (w) => `/dev/apps/${w.app}/build_graph` },
  {
    endpoint: "GET build_graph_image",
    method: "GET",
    path: (w, r) =>
      `/dev/apps/${w.app}/build_graph_image?node=${r.pick(["", "concierge", "concierge/weather", "x/y"])}`,
  },
  {
    endpoint: "GET event graph",
    method: "GET",
    path: (w, r) => `${r.pick(["", "/dev"])}${sessionOf(w, r)}/events/${r.pick(w.events)}/graph`,
  },
  {
    endpoint: "GET session trace",
    method: "GET",
    path: (w, r) =>
      `${r.pick(["", `/dev/apps/${w.app}`])}/debug/trace/session/${r.pick(w.sessions)}${r.chance(0.5) ? `?user_id=${r.pick(w.users)}` : ""}`,
  },
  {
    endpoint: "GET event trace",
    method: "GET",
    path: (w, r) =>
      `${r.pick(["", `/dev/apps/${w.app}`])}/debug/trace/${r.pick(w.events)}?session_id=${r.pick(w.sessions)}`,
  },
  { endpoint: "GET eval_sets", method: "GET", path: (w) => `/apps/${w.app}/eval_sets` },
  {
    endpoint: "POST eval_sets/:set/add_session",
    method: "POST",
    path: (w, r) => `/dev/apps/${w.app}/eval_sets/${r.pick(["fuzz", "none"])}/add_session`,
    body: (w, r) => ({
      evalId: r.pick(["c1", "c 2", ""]),
      sessionId: r.pick(w.sessions),
      userId: r.pick(w.users),
    }),
  },
  {
    endpoint: "POST eval-sets/:set/run",
    method: "POST",
    path: (w, r) => `/apps/${w.app}/eval-sets/${r.pick(["fuzz", "none"])}/run`,
    body: (_w, r) => ({
      evalCaseIds: r.chance(0.5) ? [] : ["c1", "nope"],
      evalMetrics: [
        {
          metricName: r.pick(["tool_trajectory_avg_score", "response_match_score", "safety_v1"]),
          threshold: randomValue(r),
        },
      ],
    }),
  },
  {
    endpoint: "GET /turns/:id",
    method: "GET",
    path: (_w, r) => `/turns/${r.pick(["t-1", "00000000-0000-0000-0000-000000000000"])}`,
  },
  {
    endpoint: "POST /a2a/:app",
    method: "POST",
    path: (w) => `/a2a/${w.app}`,
    body: (_w, r) => ({
      jsonrpc: "2.0",
      id: r.int(100),
      method: r.pick([
        "message/send",
        "tasks/get",
        "tasks/cancel",
        "SendMessage",
        "nope",
        ...PROTOTYPE_NAMES,
      ]),
      params: {
        message: {
          kind: "message",
          messageId: r.chance(0.2) ? r.pick(LONG_IDS) : `m-${r.int(1e6)}`,
          role: r.pick(["user", "ROLE_USER"]),
          parts: [{ kind: "text", text: "hi" }],
          ...(r.chance(0.3) ? { contextId: r.pick([...LONG_IDS, "c-1", "a/b", ".."]) } : {}),
          ...(r.chance(0.2) ? { taskId: r.pick([...LONG_IDS, `t:${"c".repeat(300)}`]) } : {}),
          ...(r.chance(0.3)
            ? { metadata: r.chance(0.5) ? deepValue(r.pick([63, 65, 3000])) : randomValue(r) }
            : {}),
        },
        ...(r.chance(0.2) ? { id: r.pick(LONG_IDS) } : {}),
      },
    }),
    headers: (r) => (r.chance(0.5) ? { "A2A-Version": r.pick(["0.3", "1.0", "9"]) } : {}),
  },
  { endpoint: "GET agent card", method: "GET", path: (w) => `/a2a/${w.app}/.well-known/agent-card.json` },
  {
    endpoint: "POST webhook",
    method: "POST",
    path: (w) => `/webhooks/${w.app}/github`,
    body: (_w, r) => ({ action: "created", issue: { number: r.int(9) }, comment: { body: "hi" } }),
    headers: (r) => ({
      "x-github-event": "issue_comment",
      "x-github-delivery": `d-${r.int(1e6)}`,
      "x-hub-signature-256": `sha256=${"0".repeat(64)}`,
    }),
  },
];

const TEMPLATES: readonly Template[] = [...ADK_TEMPLATES, ...PROTOCOL_TEMPLATES];

/** Ids past every limit in core/limits.ts (and one far past what a URL may carry). */
const LONG_IDS = ["x".repeat(129), "x".repeat(321), "x".repeat(5000)] as const;

const SEGMENTS = [
  ...LONG_IDS,
  "a b",
  "",
  "..",
  "%2e%2e",
  "%00",
  "%2F",
  "%20",
  "🙂",
  "__proto__",
  "constructor",
  "nope",
  "a".repeat(3000),
];

/** Replaces one path segment, appends one, or adds a query. */
function mutatePath(path: string, r: Random): string {
  const [base = "", query] = path.split("?");
  const parts = base.split("/");
  switch (r.int(3)) {
    case 0:
      parts[1 + r.int(Math.max(1, parts.length - 1))] = r.pick(SEGMENTS);
      break;
    case 1:
      // Another segment, or a trailing slash (an empty one).
      parts.push(r.chance(0.2) ? "" : r.pick(SEGMENTS));
      break;
    default:
      return `${base}?${r.pick(["detailed=true", "node=%00", `x=${"y".repeat(2000)}`, "__proto__[x]=1", "a=1&a=2"])}`;
  }
  return parts.join("/") + (query === undefined ? "" : `?${query}`);
}

/** The object or array holding a random place in `value`, and that place's key. */
function randomPlace(
  value: unknown,
  r: Random,
): [holder: Record<string, unknown> | unknown[], key: string | number] | undefined {
  let holder: unknown = value;
  let found: [Record<string, unknown> | unknown[], string | number] | undefined;
  for (let step = 0; step < 4 && typeof holder === "object" && holder !== null; step++) {
    const keys = Array.isArray(holder) ? holder.map((_, i) => i) : Object.keys(holder);
    if (keys.length === 0) break;
    const key = r.pick<string | number>(keys);
    // SAFETY: `holder` is a non-null object here, so indexing it by one of its own keys is sound.
    found = [holder as Record<string, unknown>, key];
    holder = (holder as Record<string | number, unknown>)[key];
    if (r.chance(0.4)) break;
  }
  return found;
}

/** One structural change to a parsed body: drop, replace, add or rename a field somewhere in it. */
function mutateJson(body: unknown, r: Random): unknown {
  if (typeof body !== "object" || body === null || r.chance(0.1)) return randomValue(r);
  const place = randomPlace(body, r);
  if (!place) return body;
  const [holder, key] = place;
  // SAFETY: both shapes are indexed by the key `randomPlace` took from them.
  const record = holder as Record<string | number, unknown>;
  switch (r.int(4)) {
    case 0:
      delete record[key];
      break;
    case 1:
      record[key] = randomValue(r);
      break;
    case 2: {
      const added: string = r.pick(HOSTILE_KEYS);
      record[added] = randomValue(r);
      break;
    }
    default:
      record[`${String(key).replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)}`] = record[key];
  }
  return body;
}

/** Changes to the body's text: cut it, splice in a raw `__proto__`, nest it deep, or replace it. */
function mutateText(raw: string, r: Random): string {
  switch (r.int(6)) {
    case 0:
      return raw.slice(0, r.int(raw.length + 1));
    case 1:
      return raw.replace("{", `{"__proto__": {"polluted": true}, `);
    case 2:
      return `${'{"a":'.repeat(5000)}1${"}".repeat(5000)}`;
    case 3:
      return r.pick(["", "null", "[]", "0", '"text"', "{", "\u0000", "<xml/>"]);
    case 4:
      return JSON.stringify({ x: deepValue(70), ...JSON.parse(raw || "{}") });
    default:
      return raw.replace(/"[a-z]/, (m) => `${m}\\u0000`);
  }
}

function mutateHeaders(headers: Record<string, string>, r: Random): Record<string, string> {
  const changed = { ...headers };
  switch (r.int(4)) {
    case 0:
      changed["content-type"] = r.pick([
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "application/json; charset=utf-16",
      ]);
      break;
    case 1:
      delete changed["content-type"];
      break;
    case 2:
      changed[r.pick(["x-forwarded-for", "a2a-version", "x-github-event", "accept", "origin"])] = r.pick([
        "",
        "%C3%A9",
        "1.0",
        "*/*",
        "x".repeat(4000),
      ]);
      break;
    default:
      changed.authorization = r.pick([
        "Bearer",
        "Bearer  ",
        "bearer x y",
        "Basic YTpi",
        `Bearer ${"A".repeat(9000)}`,
        "Bearer a.b.c",
      ]);
  }
  return changed;
}

/** A request from a random template, with zero or more mutations of its method, path, headers and body. */
export function fuzzRequest(w: World, r: Random): FuzzRequest {
  const template = r.pick(TEMPLATES);
  let path = template.path(w, r);
  let method = template.method;
  const auth = r.pick(w.authorizations);
  let headers: Record<string, string> = {
    ...(auth === null ? {} : { authorization: auth }),
    ...(template.body ? { "content-type": "application/json" } : {}),
    ...template.headers?.(r),
  };
  let body = template.body ? JSON.stringify(template.body(w, r)) : undefined;
  if (r.chance(0.08)) method = r.pick(["GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "HEAD", "TRACE"]);
  if (r.chance(0.2)) path = mutatePath(path, r);
  if (r.chance(0.25)) headers = mutateHeaders(headers, r);
  if (body !== undefined && r.chance(0.5)) {
    for (let i = 0, n = 1 + r.int(3); i < n; i++) body = JSON.stringify(mutateJson(JSON.parse(body), r));
  }
  if (body !== undefined && r.chance(0.2)) body = mutateText(body, r);
  if (method === "GET" || method === "HEAD") body = undefined;
  return { method, path, headers, endpoint: template.endpoint, ...(body === undefined ? {} : { body }) };
}
