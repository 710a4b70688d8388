// Starts the tests' real MCP servers as child processes on 127.0.0.1 (ephemeral ports) and stops them.
import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:net";
import { join } from "node:path";
import { createInterface } from "node:readline";

const ROOT = join(import.meta.dirname, "../..");

export interface McpProcess {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  stop(): Promise<void>;
}

async function stopped(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = once(child, "exit");
  child.kill("SIGTERM");
  await exited;
}

/** Resolves with the first line `read` accepts from `stream`; rejects if the process exits first. */
async function firstLine<T>(
  child: ChildProcess,
  stream: NodeJS.ReadableStream,
  read: (line: string) => T | undefined,
): Promise<T> {
  const lines = createInterface({ input: stream });
  const exited = once(child, "exit").then(([code]) => {
    throw new Error(`The MCP server exited with ${String(code)} before it was ready.`);
  });
  const ready = (async () => {
    for await (const line of lines) {
      const value = read(line);
      if (value !== undefined) return value;
    }
    throw new Error("The MCP server closed its output before it was ready.");
  })();
  const value = await Promise.race([ready, exited]);
  stream.resume(); // whatever the process writes later is drained, so its pipe never fills
  return value;
}

/** test/support/mcp-test-server.ts (the official v1 SDK's server), in its own process. */
export const startMcpTestServer = () => startScript("test/support/mcp-test-server.ts");

/** test/support/mcp-v2-server.ts (the official v2 SDK's server, 2026-07-28 and 2025-11-25), in its own process. */
export const startMcpV2Server = () => startScript("test/support/mcp-v2-server.ts");

/** A server script that prints `{"port": n}` once it listens, in its own process. */
async function startScript(script: string): Promise<McpProcess> {
  const child = spawn(process.execPath, ["--import", "tsx", join(ROOT, script)], {
    cwd: ROOT,
    stdio: ["ignore", "pipe", "inherit"],
  });
  const port = await firstLine(child, child.stdout ?? process.stdin, (line) => {
    const parsed: unknown = JSON.parse(line);
    return typeof parsed === "object" && parsed !== null && "port" in parsed
      ? Number(parsed.port)
      : undefined;
  });
  return { origin: `http://127.0.0.1:${port}`, stop: () => stopped(child) };
}

/** A port nothing listens on right now (the "everything" server takes its port from `PORT`). */
async function freePort(): Promise<number> {
  const server = createServer();
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  const port = typeof address === "object" && address !== null ? address.port : 0;
  server.close();
  await once(server, "close");
  return port;
}

/** The registry's `@modelcontextprotocol/server-everything` in Streamable HTTP mode; its endpoint is `/mcp`. */
export async function startEverythingServer(): Promise<McpProcess> {
  const port = await freePort();
  const entry = join(ROOT, "node_modules/@modelcontextprotocol/server-everything/dist/index.js");
  const child = spawn(process.execPath, [entry, "streamableHttp"], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "ignore", "pipe"],
  });
  await firstLine(child, child.stderr ?? process.stdin, (line) =>
    /listening on port/i.test(line) ? true : undefined,
  );
  return { origin: `http://127.0.0.1:${port}`, stop: () => stopped(child) };
}
