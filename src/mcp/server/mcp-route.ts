import { createMcpHandler, ProtocolError, ProtocolErrorCode, Server } from "@modelcontextprotocol/server";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/server/validators/cf-worker";
import { type Context, Hono } from "hono";
import * as z from "zod";
import { guardJson } from "../../core/json-guard.js";
import { reservedUserKey } from "../../core/reserved-users.js";
import { findApp } from "../../handlers/app-lookup.js";
import { requireToken } from "../../handlers/auth.js";
import { assertMayActAs, type Caller, callerOf } from "../../handlers/caller.js";
import { checkHost } from "../../handlers/host-check.js";
import type { HonoEnv } from "../../handlers/types.js";
import type { App } from "../../runner/app.js";
import {
  jsonRpcRefusal,
  mcpAnswers,
  mcpCors,
  PROTECTED_RESOURCE_PATH,
  protectedResourceMetadata,
} from "./mcp-http.js";
import { HEADER_MISMATCH, paramHeaderMismatch } from "./param-headers.js";
import { servedAsTask, startServedTask } from "./served-tasks.js";
import type { McpRequestExtra, McpServedTool, McpToolAnswer } from "./served-tool.js";
import { callTurnTool } from "./turn-call.js";
import { declaresTasks, missingExtension, serveTurnTasks } from "./turn-tasks.js";
import { turnToolName, turnToolOf } from "./turn-tool.js";

export interface McpServerOptions {
  /**
   * The user a service token's turns belong to (an end user's are always their own), stored in Baton's
   * reserved namespace as `baton:mcp:<userId>` (decision 048). Default `"mcp"`.
   */
  userId?: string;
  /**
   * More tools each app's server offers beside its turn tool, written as MCP tools (user code: their
   * definition and handler). The turn tool's name wins a clash. A handler that throws answers `isError`,
   * but a `ProtocolError` it throws (the SDK's; e.g. `MissingRequiredClientCapabilityError`) is a JSON-RPC error.
   */
  tools?: (app: App) => readonly McpServedTool[];
  /**
   * Anything else an app's server offers (resources, prompts, completion, logging), on the SDK's (v2)
   * low-level `Server` before it connects: register the capability (`server.registerCapabilities`), then
   * the handlers (`server.setRequestHandler("resources/list", …)`).
   * The server is stateless: one per request, so nothing set on it outlives the request.
   */
  extend?: (server: Server, app: App) => void;
}

export type { McpRequestExtra, McpServedTool, McpToolAnswer } from "./served-tool.js";

/** A served tool's answer; what it throws, as a tool error the caller reads. */
async function servedResult(
  served: McpServedTool,
  args: Record<string, unknown>,
  extra: McpRequestExtra,
): Promise<McpToolAnswer> {
  try {
    return await served.call(args, extra);
  } catch (error) {
    // The SDK's protocol errors (invalid params, a missing client capability) stay JSON-RPC errors.
    if (error instanceof ProtocolError) throw error;
    const text = error instanceof Error ? error.message : String(error);
    return { content: [{ type: "text", text }], isError: true };
  }
}

/** An end user's turns are their own; a service token's belong to Baton's reserved MCP user. */
const userOf = (caller: Caller, options: McpServerOptions): string =>
  caller.kind === "end-user"
    ? caller.subject
    : reservedUserKey("mcp", options.userId ?? "mcp", "mcpServer's userId");

/** One request's MCP server for `app`: its turn tool runs a turn through `/run`'s path; the options add more. */
function appServer(c: Context<HonoEnv>, app: App, userId: string, options: McpServerOptions): Server {
  const server = new Server(
    { name: app.name, version: "1.0.0" },
    {
      capabilities: { tools: { listChanged: false } },
      // Workers forbid code generation (`new Function`), which the SDK's default Ajv validator needs.
      jsonSchemaValidator: new CfWorkerJsonSchemaValidator(),
    },
  );
  const served = options.tools?.(app) ?? [];
  server.setRequestHandler("tools/list", () => ({
    tools: [turnToolOf(app), ...served.map((t) => t.tool).filter((t) => t.name !== turnToolName(app))],
  }));
  server.setRequestHandler("tools/call", async (request, extra): Promise<McpToolAnswer> => {
    // An unknown tool stays a protocol error; invalid arguments are a tool result the model can correct.
    const other = served.find((t) => t.tool.name === request.params.name);
    if (request.params.name !== turnToolName(app) && other !== undefined) {
      const args = request.params.arguments ?? {};
      if (!servedAsTask(other, declaresTasks(extra), missingExtension))
        return servedResult(other, args, extra);
      // The tool may first ask in the request (multi round-trip); its retry's answers go with the task.
      const asked = await other.askFirst?.(args, extra);
      if (asked !== undefined) return asked;
      const call = { served: other, args, extra, run: servedResult };
      // SAFETY: as for the turn tool's task below.
      return (await startServedTask(c, app, userId, call)) as unknown as McpToolAnswer;
    }
    if (request.params.name !== turnToolName(app))
      throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    // SAFETY: a task (SEP-2663's flat CreateTaskResult, `resultType: "task"`) is not in the SDK's types,
    // which know v1's nested task; the SDK passes a tools/call `resultType` other than "complete" through.
    return (await callTurnTool(c, app, userId, request.params.arguments ?? {}, extra)) as McpToolAnswer;
  });
  // MCP's Tasks extension (2026-07-28): the turn tool's calls as A2A tasks of the caller's sessions.
  if (c.var.deps.taskStore !== undefined)
    serveTurnTasks(server, c, app, userId, { tools: served, run: servedResult });
  options.extend?.(server, app);
  return server;
}

/** An MCP refusal as the SDK's transport answers its own: a JSON-RPC error with no id. */
const mcpRefusal = (status: 400 | 403, code: number, message: string): Response =>
  jsonRpcRefusal(status, code, message);

/**
 * The request's JSON-RPC message(s) through the one body guard (core/json-guard.ts), or the refusal the
 * transport would give: `-32700` Parse error, `-32600` Invalid Request for a hostile shape. The API's body
 * cap was kept while the body was read (`capped-body.ts`).
 */
async function guardedBody(request: Request): Promise<{ parsedBody: unknown } | Response> {
  const guarded = guardJson(await request.text());
  if (guarded.ok) return { parsedBody: guarded.value };
  const { reason, message } = guarded.refusal;
  if (reason === "shape")
    return mcpRefusal(400, ProtocolErrorCode.InvalidRequest, `Invalid Request: ${message}`);
  return mcpRefusal(400, ProtocolErrorCode.ParseError, "Parse error: Invalid JSON");
}

/**
 * A 2026-07-28 `tools/call` whose `Mcp-Param-*` headers do not match its arguments (SEP-2243): 400 with
 * JSON-RPC error -32020. Older requests carry no such headers and are not checked.
 */
function customHeaderRefusal(
  headers: Headers,
  message: unknown,
  app: App,
  options: McpServerOptions,
): Response | undefined {
  if (headers.get("mcp-method") !== "tools/call") return undefined;
  const call = CallShape.safeParse(message);
  if (!call.success) return undefined;
  const { name, arguments: args = {} } = call.data.params;
  const tools = [turnToolOf(app), ...(options.tools?.(app) ?? []).map((t) => t.tool)];
  const problem = paramHeaderMismatch(
    headers,
    tools.find((t) => t.name === name),
    args,
  );
  if (problem === undefined) return undefined;
  return Response.json(
    { jsonrpc: "2.0", id: call.data.id, error: { code: HEADER_MISMATCH, message: problem } },
    { status: 400 },
  );
}

/** The part of a `tools/call` request the header check reads. */
const CallShape = z.object({
  id: z.union([z.string(), z.number()]),
  params: z.object({ name: z.string(), arguments: z.record(z.string(), z.unknown()).optional() }),
});

/** The protected resource metadata of `resource` (RFC 9728), or 404 when the Worker takes no end-user JWTs. */
const metadataAnswer = (c: Context<HonoEnv>, resource: string): Response => {
  const metadata = protectedResourceMetadata(c.env, resource);
  if (metadata === undefined)
    return c.json(
      { detail: "This Worker takes no OAuth tokens (JWT_ISSUER is not set).", code: "not_found" },
      404,
    );
  return c.json(metadata, 200, { "Cache-Control": "max-age=300" });
};

/**
 * Every app as an MCP server at `/mcp/<app>` (stateless Streamable HTTP, the SDK's Web-standard
 * transport): one tool that runs a turn. Service tokens and end-user JWTs work as on `/run` (the API's
 * auth, run by this route itself so that a browser's preflight and the OAuth metadata need no token); an
 * end user's turns are their own (`sub`), a service token's `userId`'s. Every request must come for one of
 * the Worker's own hosts, and from one of its origins when it names one (the MCP spec's Origin validation
 * against DNS rebinding: `ALLOWED_HOSTS`, `ALLOWED_ORIGINS`, decision 048); a browser may call it across
 * origins only from an origin `ALLOWED_ORIGINS` lists (CORS, decision 050). With end-user JWTs on
 * (`JWT_ISSUER`), `/.well-known/oauth-protected-resource` (and its `/mcp/<app>` form) names the issuer, and
 * a 401 says where that is (RFC 9728), so OAuth clients find the login. Errors are JSON-RPC errors.
 * @example
 * export default createWorker({ apps: [helpdesk], mcp: mcpServer() });
 */
export function mcpServer(options: McpServerOptions = {}): Hono<HonoEnv> {
  return (
    new Hono<HonoEnv>()
      .use(PROTECTED_RESOURCE_PATH, mcpCors())
      .use(`${PROTECTED_RESOURCE_PATH}/mcp/:app`, mcpCors())
      .get(PROTECTED_RESOURCE_PATH, (c) => metadataAnswer(c, new URL(c.req.url).origin))
      .get(`${PROTECTED_RESOURCE_PATH}/mcp/:app`, (c) => {
        const url = new URL(c.req.url);
        return metadataAnswer(c, `${url.origin}${url.pathname.slice(PROTECTED_RESOURCE_PATH.length)}`);
      })
      .use("/mcp/:app", mcpCors(), mcpAnswers())
      .use(
        "/mcp/:app",
        checkHost((_c, message) => mcpRefusal(403, -32000, message)),
        requireToken(),
      )
      .post("/mcp/:app", async (c) => {
        const caller = callerOf(c);
        const userId = userOf(caller, options);
        assertMayActAs(caller, c.req.param("app"), userId);
        const app = findApp(c.var.deps.apps, c.req.param("app"));
        const body = await guardedBody(c.req.raw);
        if (body instanceof Response) return body;
        const mismatch = customHeaderRefusal(c.req.raw.headers, body.parsedBody, app, options);
        if (mismatch !== undefined) return mismatch;
        // The SDK's entry serves both eras: 2026-07-28 (stateless, `server/discover`, the per-request
        // envelope and the Mcp-Method/Mcp-Name headers checked) and, for older clients, the stateless
        // `initialize` path. Each request gets its own server instance, as before.
        const handler = createMcpHandler(() => appServer(c, app, userId, options));
        return handler.fetch(c.req.raw, body);
      })
      // Stateless: no standalone SSE stream to open (GET) and no session to end (DELETE).
      .on(["GET", "DELETE"], "/mcp/:app", (c) =>
        c.json({ detail: "This MCP endpoint is stateless: POST only." }, 405, { Allow: "POST" }),
      )
  );
}
