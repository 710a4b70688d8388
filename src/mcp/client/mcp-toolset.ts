import type { Client } from "@modelcontextprotocol/client";
import * as z from "zod";
import type { CallbackContext } from "../../agents/callback-context.js";
import type { FunctionTool } from "../../agents/function-tool.js";
import type { Toolset } from "../../agents/toolset.js";
import { SHARED_SCOPES, type SharedScope } from "../../core/state.js";
import { ATTR } from "../../core/trace.js";
import { connect, type EraVerdict, type McpConnection } from "./connect.js";
import {
  type ConnectionParams,
  type ConnectionParamsInput,
  ConnectionParamsSchema,
} from "./connection-params.js";
import { connectionSurvives, mcpFailure } from "./mcp-failure.js";
import { type McpConfirmation, type McpToolHost, type McpToolInfo, mcpTool } from "./mcp-tool.js";
import { headersKey, ToolListCache } from "./tool-list-cache.js";

/** Headers for one invocation, from what it knows (ADK `header_provider`): a user's token in state, say. */
export type HeaderProvider = (
  ctx: CallbackContext,
) => Record<string, string> | undefined | Promise<Record<string, string> | undefined>;

/** Which of the server's tools the agent gets (ADK `tool_filter`): their names, or a predicate. */
export type ToolFilter = readonly string[] | ((tool: McpToolInfo, ctx: CallbackContext) => boolean);

export interface McpToolsetConfig {
  /** How to reach the server (ADK `connection_params`); or give `url` (Streamable HTTP) instead. */
  connectionParams?: ConnectionParamsInput;
  /** The server's URL, for Streamable HTTP with the default timeouts (falls back to HTTP+SSE on a 4xx). */
  url?: string;
  /** Headers sent with every request, over those of `connectionParams`. */
  headers?: Record<string, string>;
  /** Headers per invocation, over the static ones (ADK `header_provider`). */
  headerProvider?: HeaderProvider;
  toolFilter?: ToolFilter;
  /** Prefixes every tool's name as ADK does: `<prefix>_<name>`. The server is called with its own name. */
  toolNamePrefix?: string;
  /** Ask the user before each call (ADK's `adk_request_confirmation` flow): `true`, or a function of the call. */
  requireConfirmation?: McpConfirmation;
  /** Seconds an isolate reuses a server's tool list (per set of headers). Default 60; 0 lists every step. */
  toolListTtl?: number;
  /** The shared scopes `headerProvider` and `requireConfirmation` read; left out, both when either is given. */
  stateScopes?: readonly SharedScope[];
}

/** At most this many header sets per toolset keep a server's verdict (as the tool list cache). */
const MAX_VERDICTS = 64;

const TtlSchema = z.number().nonnegative().default(60);

function paramsOf(config: McpToolsetConfig): ConnectionParams {
  if ((config.url === undefined) === (config.connectionParams === undefined))
    throw new TypeError("McpToolset: give exactly one of `url` and `connectionParams`.");
  const given = config.connectionParams ?? { url: config.url };
  const parsed = ConnectionParamsSchema.safeParse(given);
  if (!parsed.success)
    throw new TypeError(`McpToolset: invalid connection params: ${z.prettifyError(parsed.error)}`);
  return parsed.data;
}

const selected = (filter: ToolFilter | undefined, tool: McpToolInfo, ctx: CallbackContext): boolean =>
  filter === undefined || (typeof filter === "function" ? filter(tool, ctx) : filter.includes(tool.name));

/**
 * The tools of an MCP server as an agent's tools (ADK `McpToolset`), over Streamable HTTP or HTTP+SSE
 * with the official MCP SDK. Tools are listed per step (cached per isolate for `toolListTtl` seconds),
 * filtered and prefixed; a server that cannot be listed gives the tools last listed, or none, and a
 * failed span with the code: the turn goes on either way.
 * @example
 * const agent = new LlmAgent({ name: "helper", model: "demo:", tools: [
 *   new McpToolset({ url: "https://tools.example/mcp", toolFilter: ["search"], toolNamePrefix: "kb" })] });
 */
export class McpToolset implements Toolset {
  readonly kind = "toolset";
  readonly name: string;
  readonly params: ConnectionParams;
  readonly stateScopes: readonly SharedScope[] | undefined;
  private readonly cache: ToolListCache;
  private readonly host: McpToolHost;
  /** What the server spoke, per set of headers: the next turn connects without probing again. */
  private readonly verdicts = new Map<string, EraVerdict>();

  constructor(readonly config: McpToolsetConfig) {
    this.params = paramsOf(config);
    this.name = `McpToolset(${this.params.url})`;
    const reads = config.headerProvider !== undefined || typeof config.requireConfirmation === "function";
    this.stateScopes = config.stateScopes ?? (reads ? SHARED_SCOPES : []);
    const ttl = TtlSchema.safeParse(config.toolListTtl);
    if (!ttl.success) throw new TypeError("McpToolset: `toolListTtl` is a number of seconds, 0 or more.");
    this.cache = new ToolListCache(ttl.data * 1000);
    this.host = {
      url: this.params.url,
      stateScopes: this.stateScopes,
      requireConfirmation: config.requireConfirmation,
      callTimeoutMs: this.params.sseReadTimeout * 1000,
      withClient: async (ctx, use) => this.withClient(ctx, await this.headers(ctx), use),
    };
  }

  async tools(ctx: CallbackContext): Promise<readonly FunctionTool[]> {
    const headers = await this.headers(ctx);
    const infos = await this.listed(ctx, headers);
    const prefix = this.config.toolNamePrefix;
    return infos
      .filter((info) => selected(this.config.toolFilter, info, ctx))
      .map((info) => mcpTool(info, prefix ? `${prefix}_${info.name}` : info.name, this.host));
  }

  /** The static headers, then `connectionParams`' and the top-level ones, then the provider's. */
  private async headers(ctx: CallbackContext): Promise<Record<string, string>> {
    const provided = (await this.config.headerProvider?.(ctx)) ?? {};
    return { ...this.params.headers, ...this.config.headers, ...provided };
  }

  /**
   * Runs `use` with the invocation's connection to the server for these headers: made at its first use in
   * the turn, shared by the listing and every call of the turn (and by toolsets of the same server), and
   * ended when the turn ends. A transport failure drops it, so the next use connects again.
   */
  private async withClient<T>(
    ctx: CallbackContext,
    headers: Record<string, string>,
    use: (client: Client) => Promise<T>,
  ): Promise<T> {
    const { resources, services } = ctx.invocation;
    const key = `mcp ${this.params.type} ${this.params.url} ${headersKey(headers)}`;
    const connecting = resources.hold(
      key,
      () => this.connect(key, headers, services.fetch),
      async (opened: Promise<McpConnection>) => (await opened.catch(() => undefined))?.close(),
    );
    // Past the turn's end nothing is held: this use's connection is its own, ended after it.
    const own = !resources.holds(key);
    try {
      return await use((await connecting).client);
    } catch (error) {
      // A transport failure also forgets what the server spoke: a server rolled back to an older revision
      // refuses the 2026-07-28 requests a remembered verdict sends without a probe.
      if (!connectionSurvives(error)) this.verdicts.delete(key);
      if (!own && !connectionSurvives(error)) await resources.drop(key).catch(() => undefined);
      throw error;
    } finally {
      if (own) await (await connecting.catch(() => undefined))?.close();
    }
  }

  /**
   * A connection, made with what the server spoke last time (no `server/discover` probe then); a failure
   * forgets it, so the next connection probes again (a server may have been upgraded or rolled back).
   */
  private async connect(
    key: string,
    headers: Record<string, string>,
    fetch: typeof globalThis.fetch,
  ): Promise<McpConnection> {
    const prior = this.verdicts.get(key);
    try {
      const opened = await connect({ params: this.params, headers, fetch, prior });
      this.verdicts.delete(key);
      this.verdicts.set(key, opened.verdict);
      for (const old of this.verdicts.keys()) {
        if (this.verdicts.size <= MAX_VERDICTS) break;
        this.verdicts.delete(old);
      }
      return opened;
    } catch (error) {
      this.verdicts.delete(key);
      throw error;
    }
  }

  /** The server's tools: from the cache while fresh, else listed now; on failure the stale list, or none. */
  private async listed(
    ctx: CallbackContext,
    headers: Record<string, string>,
  ): Promise<readonly McpToolInfo[]> {
    const now = ctx.invocation.services.clock.now();
    const cached = this.cache.get(headers, now);
    if (cached?.fresh) return cached.tools;
    const { invocation } = ctx;
    const span = invocation.recorder.start(
      "mcp tools/list",
      { [ATTR.mcpServer]: this.params.url },
      invocation.span,
    );
    try {
      const tools = await this.withClient(ctx, headers, async (client) => {
        const listed: McpToolInfo[] = [];
        let cursor: string | undefined;
        do {
          const page = await client.listTools(cursor === undefined ? {} : { cursor }, {
            timeout: this.params.sseReadTimeout * 1000,
          });
          listed.push(...page.tools);
          cursor = page.nextCursor;
        } while (cursor !== undefined);
        return listed;
      });
      this.cache.set(headers, tools, now);
      span.end();
      return tools;
    } catch (error) {
      const failure = mcpFailure(error, this.params.url, "tools/list");
      span.end({ [ATTR.errorCode]: failure.code }, failure);
      return cached?.tools ?? [];
    }
  }
}
