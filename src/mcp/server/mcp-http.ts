import type { Context, MiddlewareHandler } from "hono";
import { endUserConfigOf } from "../../handlers/end-user-config.js";
import { isListedOrigin } from "../../handlers/host-check.js";
import type { HonoEnv } from "../../handlers/types.js";

/** RFC 9728's well-known path; a resource at `/mcp/<app>` has its metadata at this path plus `/mcp/<app>`. */
export const PROTECTED_RESOURCE_PATH = "/.well-known/oauth-protected-resource";

/** A JSON-RPC error with no id, as the SDK's transport answers its own refusals (code -32000 and the like). */
export const jsonRpcRefusal = (
  status: number,
  code: number,
  message: string,
  data?: Record<string, unknown>,
): Response =>
  Response.json(
    { jsonrpc: "2.0", error: { code, message, ...(data === undefined ? {} : { data }) }, id: null },
    { status },
  );

/**
 * The protected resource metadata (RFC 9728) of `resource`, naming the issuer of the Worker's end-user
 * JWTs (`JWT_ISSUER`, decision 022) as its authorization server; `undefined` when the Worker takes no
 * end-user tokens (service tokens are not issued by an OAuth flow, so there is nothing to discover).
 */
export function protectedResourceMetadata(
  env: HonoEnv["Bindings"] | undefined,
  resource: string,
): Record<string, unknown> | undefined {
  const endUsers = endUserConfigOf(env ?? {});
  if (endUsers === undefined) return undefined;
  return {
    resource,
    authorization_servers: [endUsers.issuer],
    bearer_methods_supported: ["header"],
    resource_name: "Baton MCP server",
  };
}

/** Where the metadata of the MCP endpoint this request came to is served (the path-suffixed form). */
const metadataUrl = (c: Context<HonoEnv>): string => {
  const url = new URL(c.req.url);
  return `${url.origin}${PROTECTED_RESOURCE_PATH}${url.pathname}`;
};

/** Baton's `{detail, code}` error body, if `response` has one (not already a JSON-RPC message). */
async function batonError(response: Response): Promise<{ detail: string; code?: string } | undefined> {
  if (!(response.headers.get("content-type") ?? "").includes("application/json")) return undefined;
  const body: unknown = await response
    .clone()
    .json()
    .catch(() => undefined);
  if (typeof body !== "object" || body === null || "jsonrpc" in body || !("detail" in body)) return undefined;
  const code = "code" in body && typeof body.code === "string" ? body.code : undefined;
  return { detail: String(body.detail), ...(code === undefined ? {} : { code }) };
}

/**
 * The MCP route's own answers by MCP's rules: an error the API gives in its `{detail, code}` shape (a 401
 * from the auth, a 403, an unknown app's 404, a 405) goes out as a JSON-RPC error with the same status and
 * headers (code -32000, Baton's code in `data`); a 401 names where the protected resource metadata is
 * (`WWW-Authenticate: Bearer …, resource_metadata="…"`, RFC 9728 §5.1) when the Worker takes end-user JWTs.
 */
export function mcpAnswers(): MiddlewareHandler<HonoEnv> {
  return async (c, next) => {
    await next();
    const res = c.res;
    if (res.status < 400) return;
    const error = await batonError(res);
    if (error === undefined) return;
    const shaped = jsonRpcRefusal(
      res.status,
      -32000,
      error.detail,
      error.code === undefined ? undefined : { code: error.code },
    );
    for (const [name, value] of res.headers)
      if (name !== "content-type" && name !== "content-length") shaped.headers.set(name, value);
    if (res.status === 401 && protectedResourceMetadata(c.env, "") !== undefined) {
      const challenge = res.headers.get("www-authenticate") ?? "Bearer";
      shaped.headers.set("www-authenticate", `${challenge}, resource_metadata="${metadataUrl(c)}"`);
    }
    c.res = undefined;
    c.res = shaped;
  };
}

/** What a browser may send to and read from `/mcp/<app>` across origins. */
const ALLOW_METHODS = "POST, GET, DELETE, OPTIONS";
const EXPOSE_HEADERS = "Mcp-Session-Id, Mcp-Protocol-Version, WWW-Authenticate";
const DEFAULT_ALLOW_HEADERS =
  "Authorization, Content-Type, Accept, Mcp-Protocol-Version, Mcp-Session-Id, Last-Event-ID, Mcp-Method, Mcp-Name";

/**
 * CORS for the MCP routes, off unless the `ALLOWED_ORIGINS` var lists the origin (or `*`): a listed origin
 * gets `Access-Control-Allow-Origin` (itself) on every answer and its preflights answered 204 with the
 * methods and headers MCP uses (those it asks for); a preflight from an origin not listed is 403 naming the
 * var. Credentials travel as a bearer header, never cookies, so none are allowed.
 */
export function mcpCors(): MiddlewareHandler<HonoEnv> {
  return async (c, next) => {
    const origin = c.req.header("origin");
    const allowed = origin !== undefined && isListedOrigin(origin, c.env ?? {});
    const preflight =
      c.req.method === "OPTIONS" && c.req.header("access-control-request-method") !== undefined;
    if (preflight) {
      if (!allowed)
        return jsonRpcRefusal(
          403,
          -32000,
          `Cross-origin requests from ${origin ?? "this page"} are not allowed: list the origin in ALLOWED_ORIGINS.`,
        );
      return new Response(null, {
        status: 204,
        headers: {
          "Access-Control-Allow-Origin": origin,
          "Access-Control-Allow-Methods": ALLOW_METHODS,
          "Access-Control-Allow-Headers":
            c.req.header("access-control-request-headers") ?? DEFAULT_ALLOW_HEADERS,
          "Access-Control-Max-Age": "600",
          Vary: "Origin, Access-Control-Request-Headers",
        },
      });
    }
    await next();
    if (!allowed) return;
    const res = new Response(c.res.body, c.res);
    res.headers.set("Access-Control-Allow-Origin", origin);
    res.headers.set("Access-Control-Expose-Headers", EXPOSE_HEADERS);
    res.headers.append("Vary", "Origin");
    c.res = undefined;
    c.res = res;
  };
}
