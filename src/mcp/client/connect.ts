import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { CfWorkerJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/cfworker";
import type { ConnectionParams } from "./connection-params.js";
import { refusedStreamableHttp } from "./mcp-failure.js";

/** Baton as an MCP client, in the `initialize` exchange. */
const CLIENT_INFO = { name: "baton", version: "0.1.0" };

/** What one connection is made with: the params, this call's headers and the platform's `fetch`. */
export interface ConnectOptions {
  params: ConnectionParams;
  headers: Record<string, string>;
  fetch: typeof globalThis.fetch;
}

// Workers forbid code generation (`new Function`), which the SDK's default Ajv validator needs.
const newClient = () => new Client(CLIENT_INFO, { jsonSchemaValidator: new CfWorkerJsonSchemaValidator() });

async function connectWith(
  transport: StreamableHTTPClientTransport | SSEClientTransport,
  timeoutMs: number,
): Promise<Client> {
  const client = newClient();
  try {
    await client.connect(transport, { timeout: timeoutMs });
    return client;
  } catch (error) {
    await client.close();
    throw error;
  }
}

/** A connected MCP client and how to end it: the session it opened is ended on the server too. */
export interface McpConnection {
  readonly client: Client;
  /** Ends the server's session if it gave one (HTTP DELETE with `Mcp-Session-Id`), then closes the client. */
  close(): Promise<void>;
}

function connectionOf(client: Client, transport: StreamableHTTPClientTransport | SSEClientTransport) {
  return {
    client,
    async close() {
      try {
        // A stateless server gives no session id: nothing to end. A 405 to the DELETE is the spec's "no".
        if (transport instanceof StreamableHTTPClientTransport && transport.sessionId !== undefined)
          await transport.terminateSession();
      } finally {
        await client.close();
      }
    },
  };
}

/**
 * A connected MCP client (the caller closes it). Streamable HTTP first; a 4xx to its `initialize` other
 * than 401 and 403 means an older server, which is then tried over HTTP+SSE (the MCP spec's backwards
 * compatibility); a refused credential is the answer, not a sign of an older transport.
 */
export async function connect({ params, headers, fetch }: ConnectOptions): Promise<McpConnection> {
  const url = new URL(params.url);
  const init = { requestInit: { headers }, fetch };
  const timeoutMs = params.timeout * 1000;
  const sse = async () => {
    const transport = new SSEClientTransport(url, init);
    return connectionOf(await connectWith(transport, timeoutMs), transport);
  };
  if (params.type === "sse") return sse();
  const transport = new StreamableHTTPClientTransport(url, init);
  try {
    return connectionOf(await connectWith(transport, timeoutMs), transport);
  } catch (error) {
    if (refusedStreamableHttp(error)) return sse();
    throw error;
  }
}
