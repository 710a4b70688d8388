import type { Random } from "./prng.js";
import type { Template, World } from "./requests.js";
import { deepValue, randomValue } from "./values.js";

/** Names `Object.prototype` holds: each has answered 500 from some table before (decision 048). */
export const PROTOTYPE_NAMES = ["toString", "constructor", "__proto__", "hasOwnProperty", "valueOf"] as const;

const maybeDeep = (r: Random) => (r.chance(0.5) ? deepValue(r.pick([60, 65, 1500, 3000])) : randomValue(r));
const a2aMessage = (r: Random) => ({
  messageId: `m-${r.int(1e6)}`,
  role: r.pick(["ROLE_USER", "ROLE_AGENT", "user"]),
  parts: [{ text: "hi" }],
  ...(r.chance(0.3) ? { contextId: r.pick(["c-1", "c-2", "x".repeat(129)]) } : {}),
  ...(r.chance(0.3) ? { metadata: maybeDeep(r) } : {}),
});
const taskRef = (r: Random) => r.pick(["t-1:c-1", `${"t".repeat(200)}:c`, "__proto__", "a%2Fb"]);
const artifacts = (w: World, r: Random) =>
  `/apps/${w.app}/users/${r.pick(w.users)}/sessions/${r.pick(w.sessions)}/artifacts`;
const artifactName = (r: Random) => r.pick(["notes.txt", "user:profile.json", "__proto__", "x".repeat(257)]);
const mcpHeaders = (r: Random) => ({
  accept: "application/json, text/event-stream",
  ...(r.chance(0.2) ? { origin: r.pick(["http://evil.example.com", "http://localhost:8787", "null"]) } : {}),
});

/**
 * The endpoints beyond ADK's own: A2A's HTTP+JSON binding (JSON-RPC is in `requests.ts`), MCP, artifacts,
 * memory and evals. Each is a valid request the mutations start from.
 */
export const PROTOCOL_TEMPLATES: readonly Template[] = [
  {
    endpoint: "POST /a2a/:app/message:send",
    method: "POST",
    path: (w, r) => `/a2a/${w.app}/${r.pick(["message:send", "message:stream"])}`,
    body: (_w, r) => ({ message: a2aMessage(r), ...(r.chance(0.2) ? { metadata: maybeDeep(r) } : {}) }),
  },
  {
    endpoint: "GET /a2a/:app/tasks[/:id]",
    method: "GET",
    path: (w, r) =>
      r.pick([
        `/a2a/${w.app}/tasks`,
        `/a2a/${w.app}/tasks?pageSize=${r.pick(["0", "5", "101", "x"])}&pageToken=${r.pick(["", "e30", "bad"])}`,
        `/a2a/${w.app}/tasks/${taskRef(r)}`,
        `/a2a/${w.app}/tasks/${taskRef(r)}:subscribe`,
        `/a2a/${w.app}/extendedAgentCard`,
      ]),
  },
  {
    endpoint: "POST /a2a/:app/tasks/:id:cancel",
    method: "POST",
    path: (w, r) => `/a2a/${w.app}/tasks/${taskRef(r)}${r.pick([":cancel", ":subscribe", ":nope"])}`,
  },
  {
    endpoint: "POST /a2a/:app/tasks/:id/pushNotificationConfigs",
    method: "POST",
    path: (w, r) => `/a2a/${w.app}/tasks/${taskRef(r)}/pushNotificationConfigs`,
    body: (_w, r) => ({
      url: r.pick(["https://hooks.example.com/a", "http://127.0.0.1:1/x", "http://[::7f00:1]/", "ftp://x"]),
      token: r.pick(["t", "x\r\ny"]),
      ...(r.chance(0.2) ? { metadata: maybeDeep(r) } : {}),
    }),
  },
  {
    endpoint: "POST /mcp/:app",
    method: "POST",
    path: (w) => `/mcp/${w.app}`,
    body: (_w, r) => ({
      jsonrpc: "2.0",
      id: r.int(100),
      method: r.pick(["initialize", "tools/list", "tools/call", "ping", ...PROTOTYPE_NAMES]),
      params: {
        protocolVersion: "2025-06-18",
        capabilities: {},
        clientInfo: { name: "fuzz", version: "1" },
        name: r.pick(["demo", "nope", "toString"]),
        arguments: {
          message: "hi",
          ...(r.chance(0.3) ? { sessionId: r.pick(["s-1", "x".repeat(200)]) } : {}),
        },
        ...(r.chance(0.3) ? { _meta: maybeDeep(r) } : {}),
      },
    }),
    headers: mcpHeaders,
  },
  {
    endpoint: "GET artifacts",
    method: "GET",
    path: (w, r) =>
      r.pick([
        artifacts(w, r),
        `${artifacts(w, r)}/${artifactName(r)}`,
        `${artifacts(w, r)}/${artifactName(r)}/versions`,
        `${artifacts(w, r)}/${artifactName(r)}/versions/metadata`,
        `${artifacts(w, r)}/${artifactName(r)}/versions/${r.pick(["0", "-1", "x", "99"])}`,
        `${artifacts(w, r)}/${artifactName(r)}/versions/${r.pick(["0", "1e3"])}/metadata`,
      ]),
  },
  {
    endpoint: "POST artifacts",
    method: "POST",
    path: artifacts,
    body: (_w, r) => ({
      filename: artifactName(r),
      artifact: r.chance(0.5)
        ? { text: "note" }
        : { inlineData: { mimeType: "text/plain", data: r.pick(["aGk=", "not base64!", ""]) } },
      ...(r.chance(0.4) ? { customMetadata: maybeDeep(r) } : {}),
    }),
  },
  {
    endpoint: "DELETE artifact",
    method: "DELETE",
    path: (w, r) => `${artifacts(w, r)}/${artifactName(r)}`,
  },
  {
    endpoint: "PATCH memory",
    method: "PATCH",
    path: (w, r) => `/apps/${w.app}/users/${r.pick(w.users)}/memory`,
    body: (w, r) => ({ sessionId: r.pick(w.sessions) }),
  },
  {
    endpoint: "eval routes",
    method: "GET",
    path: (w, r) =>
      `${r.pick(["", "/dev"])}/apps/${w.app}/${r.pick([
        "eval_sets",
        "eval-sets",
        "eval_results",
        "eval-results",
        "metrics-info",
        "eval_sets/fuzz/evals",
        "eval_sets/fuzz/evals/c1",
        `eval_results/${r.pick(["none", "__proto__"])}`,
      ])}`,
  },
  {
    endpoint: "POST eval_sets/:set",
    method: "POST",
    path: (w, r) => `/apps/${w.app}/eval_sets/${r.pick(["fuzz2", "__proto__", "a b", "x".repeat(300)])}`,
  },
  {
    endpoint: "PUT eval case",
    method: "PUT",
    path: (w, r) => `/apps/${w.app}/eval_sets/fuzz/evals/${r.pick(["c1", "c9", "toString"])}`,
    body: (_w, r) => ({ evalId: r.pick(["c1", "other"]), conversation: r.chance(0.5) ? [] : maybeDeep(r) }),
  },
];
