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

/**
 * A connected MCP client for one operation (the caller closes it). Streamable HTTP first; a 4xx to its
 * `initialize` means an older server, which is then tried over HTTP+SSE (the MCP spec's backwards
 * compatibility). A Worker cannot keep a connection across requests, so none is pooled.
 */
export async function connect({ params, headers, fetch }: ConnectOptions): Promise<Client> {
  const url = new URL(params.url);
  const init = { requestInit: { headers }, fetch };
  const timeoutMs = params.timeout * 1000;
  const sse = () => connectWith(new SSEClientTransport(url, init), timeoutMs);
  if (params.type === "sse") return sse();
  try {
    return await connectWith(new StreamableHTTPClientTransport(url, init), timeoutMs);
  } catch (error) {
    if (refusedStreamableHttp(error)) return sse();
    throw error;
  }
}
