import {
  Client,
  type DiscoverResult,
  SSEClientTransport,
  StreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/client/validators/cf-worker";
import type { ConnectionParams } from "./connection-params.js";
import { refusedStreamableHttp } from "./mcp-failure.js";

/** Baton as an MCP client, in `initialize` and in 2026-07-28's per-request `_meta`. */
const CLIENT_INFO = { name: "baton", version: "0.1.0" };

/**
 * What a server was found to speak, remembered so the next connection to it skips the probe: 2026-07-28
 * (its `server/discover` answer, adopted with no round trip) or an older revision (`initialize` at once).
 */
export type EraVerdict = { kind: "modern"; discover: DiscoverResult } | { kind: "legacy" };

/** What one connection is made with: the params, this call's headers, the platform's `fetch`, a verdict. */
export interface ConnectOptions {
  params: ConnectionParams;
  headers: Record<string, string>;
  fetch: typeof globalThis.fetch;
  /** What the server spoke last time; left out, the client probes with `server/discover`. */
  prior?: EraVerdict | undefined;
}

/**
 * A v2 SDK client that speaks 2026-07-28 to a server that answers `server/discover` and the older
 * revisions (`initialize`, a session) to one that does not. `input_required` answers come back to Baton
 * (not fulfilled by the SDK): they pause the turn (mcp-input.ts). Workers forbid code generation, which
 * the SDK's Ajv validator needs: the `@cfworker/json-schema` one validates everywhere.
 */
const newClient = () =>
  new Client(CLIENT_INFO, {
    jsonSchemaValidator: new CfWorkerJsonSchemaValidator(),
    versionNegotiation: { mode: "auto" },
    inputRequired: { autoFulfill: false },
  });

type Transport = StreamableHTTPClientTransport | SSEClientTransport;

async function connectWith(
  transport: Transport,
  timeoutMs: number,
  prior: EraVerdict | undefined,
): Promise<Client> {
  const client = newClient();
  try {
    await client.connect(transport, { timeout: timeoutMs, ...(prior === undefined ? {} : { prior }) });
    return client;
  } catch (error) {
    await client.close();
    throw error;
  }
}

/** A connected MCP client and how to end it: the session it opened is ended on the server too. */
export interface McpConnection {
  readonly client: Client;
  /** What the server speaks, for the next connection to it. */
  readonly verdict: EraVerdict;
  /** Ends the server's session if it gave one (HTTP DELETE with `Mcp-Session-Id`), then closes the client. */
  close(): Promise<void>;
}

function verdictOf(client: Client): EraVerdict {
  const discover = client.getDiscoverResult();
  return client.getProtocolEra() === "modern" && discover !== undefined
    ? { kind: "modern", discover }
    : { kind: "legacy" };
}

function connectionOf(client: Client, transport: Transport): McpConnection {
  return {
    client,
    verdict: verdictOf(client),
    async close() {
      try {
        // 2026-07-28 and stateless servers give no session id: nothing to end. A 405 to the DELETE is a "no".
        if (transport instanceof StreamableHTTPClientTransport && transport.sessionId !== undefined)
          await transport.terminateSession();
      } finally {
        await client.close();
      }
    },
  };
}

/**
 * A connected MCP client (the caller closes it). Streamable HTTP first, probing with `server/discover`
 * unless a verdict is given; a 4xx to it other than 401 and 403 means an older server, which is then
 * tried over HTTP+SSE (the MCP spec's backwards compatibility); a refused credential is the answer, not a
 * sign of an older transport.
 */
export async function connect({ params, headers, fetch, prior }: ConnectOptions): Promise<McpConnection> {
  const url = new URL(params.url);
  const init = { requestInit: { headers }, fetch };
  const timeoutMs = params.timeout * 1000;
  const sse = async () => {
    const transport = new SSEClientTransport(url, init);
    // HTTP+SSE is the 2024-11-05 transport: no probe.
    return connectionOf(await connectWith(transport, timeoutMs, { kind: "legacy" }), transport);
  };
  if (params.type === "sse") return sse();
  const transport = new StreamableHTTPClientTransport(url, init);
  try {
    return connectionOf(await connectWith(transport, timeoutMs, prior), transport);
  } catch (error) {
    if (refusedStreamableHttp(error)) return sse();
    throw error;
  }
}
