import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import {
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
} from "@modelcontextprotocol/sdk/types.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
import { type Context, Hono } from "hono";
import * as z from "zod";
import { userText } from "../../core/content.js";
import type { Event } from "../../core/event.js";
import { guardJson } from "../../core/json-guard.js";
import { reservedUserKey } from "../../core/reserved-users.js";
import { findApp } from "../../handlers/app-lookup.js";
import { assertMayActAs, type Caller, callerOf } from "../../handlers/caller.js";
import { checkHost } from "../../handlers/host-check.js";
import { startTurn } from "../../handlers/run.js";
import type { HonoEnv } from "../../handlers/types.js";
import type { App } from "../../runner/app.js";
import { SessionsService } from "../../runner/sessions-service.js";
import {
  progressLine,
  refusalResult,
  TurnArgsSchema,
  turnResult,
  turnToolName,
  turnToolOf,
} from "./turn-tool.js";

export interface McpServerOptions {
  /**
   * The user a service token's turns belong to (an end user's are always their own), stored in Baton's
   * reserved namespace as `baton:mcp:<userId>` (decision 048). Default `"mcp"`.
   */
  userId?: string;
}

/** An end user's turns are their own; a service token's belong to Baton's reserved MCP user. */
const userOf = (caller: Caller, options: McpServerOptions): string =>
  caller.kind === "end-user"
    ? caller.subject
    : reservedUserKey("mcp", options.userId ?? "mcp", "mcpServer's userId");

/** One request's MCP server for `app`: its one tool runs a turn through `/run`'s path. */
function appServer(c: Context<HonoEnv>, app: App, userId: string): Server {
  const server = new Server(
    { name: app.name, version: "1.0.0" },
    {
      capabilities: { tools: { listChanged: false } },
      // Workers forbid code generation (`new Function`), which the SDK's default Ajv validator needs.
      jsonSchemaValidator: new CfWorkerJsonSchemaValidator(),
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: [turnToolOf(app)] }));
  server.setRequestHandler(CallToolRequestSchema, async (request, extra): Promise<CallToolResult> => {
    if (request.params.name !== turnToolName(app))
      throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${request.params.name}`);
    const args = TurnArgsSchema.safeParse(request.params.arguments ?? {});
    if (!args.success) throw new McpError(ErrorCode.InvalidParams, z.prettifyError(args.error));
    const { message } = args.data;
    const progressToken = request.params._meta?.progressToken;
    try {
      const { deps } = c.var;
      const sessionId =
        args.data.sessionId ??
        (await new SessionsService(deps.sessionStore, deps.services).create({ appName: app.name, userId }))
          .id;
      const turn = await startTurn(c, {
        appName: app.name,
        userId,
        sessionId,
        newMessage: userText(message),
        streaming: false,
      });
      const events: Event[] = [];
      for await (const event of turn) {
        events.push(event);
        const line = progressToken === undefined ? undefined : progressLine(event);
        if (progressToken !== undefined && line !== undefined)
          await extra.sendNotification({
            method: "notifications/progress",
            params: { progressToken, progress: events.length, message: line },
          });
      }
      return turnResult(sessionId, events);
    } catch (error) {
      return refusalResult(error);
    }
  });
  return server;
}

/** An MCP refusal as the SDK's transport answers its own: a JSON-RPC error with no id. */
const mcpRefusal = (status: 400 | 403, code: number, message: string): Response =>
  Response.json({ jsonrpc: "2.0", error: { code, message }, id: null }, { status });

/**
 * The request's JSON-RPC message(s) through the one body guard (core/json-guard.ts), or the refusal the
 * transport would give: `-32700` Parse error, `-32600` Invalid Request for a hostile shape. The API's body
 * cap was kept while the body was read (`capped-body.ts`).
 */
async function guardedBody(request: Request): Promise<{ parsedBody: unknown } | Response> {
  const guarded = guardJson(await request.text());
  if (guarded.ok) return { parsedBody: guarded.value };
  const { reason, message } = guarded.refusal;
  if (reason === "shape") return mcpRefusal(400, ErrorCode.InvalidRequest, `Invalid Request: ${message}`);
  return mcpRefusal(400, ErrorCode.ParseError, "Parse error: Invalid JSON");
}

/**
 * Every app as an MCP server at `/mcp/<app>` (stateless Streamable HTTP, the SDK's Web-standard
 * transport): one tool that runs a turn. Mounted behind the API's auth, so service tokens and end-user
 * JWTs work as on `/run`; an end user's turns are their own (`sub`), a service token's `userId`'s. Every
 * request must come for one of the Worker's own hosts, and from one of its origins when it names one
 * (the MCP spec's Origin validation against DNS rebinding: `ALLOWED_HOSTS`, `ALLOWED_ORIGINS`, decision 048).
 * @example
 * export default createWorker({ apps: [helpdesk], mcp: mcpServer() });
 */
export function mcpServer(options: McpServerOptions = {}): Hono<HonoEnv> {
  return (
    new Hono<HonoEnv>()
      .use(
        "/mcp/:app",
        checkHost((_c, message) => mcpRefusal(403, -32000, message)),
      )
      .post("/mcp/:app", async (c) => {
        const caller = callerOf(c);
        const userId = userOf(caller, options);
        assertMayActAs(caller, c.req.param("app"), userId);
        const app = findApp(c.var.deps.apps, c.req.param("app"));
        const body = await guardedBody(c.req.raw);
        if (body instanceof Response) return body;
        const transport = new WebStandardStreamableHTTPServerTransport();
        await appServer(c, app, userId).connect(transport);
        return transport.handleRequest(c.req.raw, body);
      })
      // Stateless: no standalone SSE stream to open (GET) and no session to end (DELETE).
      .on(["GET", "DELETE"], "/mcp/:app", (c) =>
        c.json({ detail: "This MCP endpoint is stateless: POST only." }, 405, { Allow: "POST" }),
      )
  );
}
