import { type ChildProcess, spawn } from "node:child_process";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const DURABLE_CONFIG = fileURLToPath(new URL("../durable/wrangler.toml", import.meta.url));

/** A free port on 127.0.0.1 (bound, read, released). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      const port = typeof address === "object" && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

export interface DevServer {
  origin: string;
  /** SIGKILL to the whole process group: wrangler and the workerd it started die at once, mid-turn. */
  kill(): Promise<void>;
}

/** Which Worker to run, and the constants its build gets (`--define`). */
export interface DevServerOptions {
  /** Its wrangler.toml; default the durable-turns test's (`test/interop/durable`). */
  config?: string;
  /** `--define` names and their JavaScript values (a string's quotes included). */
  defines?: Record<string, string>;
  /** Where wrangler's output goes, line by line (it is kept for a failed start either way). */
  onOutput?: (text: string) => void;
}

/**
 * `wrangler dev` of a test Worker as its own process group, on `port`, keeping Durable Object storage (and
 * alarms) in `persistTo` so a restart finds what the killed one left.
 */
export async function startDevServer(
  port: number,
  persistTo: string,
  vars: Record<string, string>,
  options: DevServerOptions = {},
) {
  const config = options.config ?? DURABLE_CONFIG;
  const args = ["wrangler", "dev", "-c", config, "--ip", "127.0.0.1", "--port", String(port)];
  args.push("--persist-to", persistTo, "--inspector-port", "0", "--log-level", "warn");
  for (const [k, v] of Object.entries(vars)) args.push("--var", `${k}:${v}`);
  for (const [k, v] of Object.entries(options.defines ?? {})) args.push("--define", `${k}:${v}`);
  const child: ChildProcess = spawn("npx", args, {
    cwd: ROOT,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
  });
  let output = "";
  const heard = (d: unknown) => {
    output += String(d);
    options.onOutput?.(String(d));
    // BATON_DEV_LOG=1 shows what the dev server says (the objects' warnings: resumes, orphans), timed.
    if (process.env.BATON_DEV_LOG) process.stdout.write(`[dev ${Date.now() % 100_000}] ${String(d)}`);
  };
  child.stdout?.on("data", heard);
  child.stderr?.on("data", heard);
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  const origin = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 90_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited: ${output}`);
    const up = await fetch(`${origin}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) break;
    if (Date.now() > deadline) throw new Error(`wrangler dev did not start: ${output}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  const kill = async () => {
    if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, "SIGKILL");
    await exited;
  };
  return { origin, kill } satisfies DevServer;
}
