import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../../../", import.meta.url));
const CONFIG = fileURLToPath(new URL("./wrangler.toml", import.meta.url));

export interface DevServer {
  origin: string;
  /** SIGKILL to the whole process group: wrangler and its workerd die at once, mid-turn. */
  kill(): Promise<void>;
}

/** `wrangler dev` of this folder's Worker as its own process group on `port`, storage kept in `persistTo`. */
export async function startDevServer(port: number, persistTo: string, vars: Record<string, string>) {
  const args = ["wrangler", "dev", "-c", CONFIG, "--ip", "127.0.0.1", "--port", String(port)];
  args.push("--persist-to", persistTo, "--inspector-port", "0", "--log-level", "warn");
  for (const [k, v] of Object.entries(vars)) args.push("--var", `${k}:${v}`);
  const child: ChildProcess = spawn("npx", args, {
    cwd: ROOT,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
  });
  let output = "";
  child.stdout?.on("data", (d) => (output += String(d)));
  child.stderr?.on("data", (d) => (output += String(d)));
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
    await new Promise((r) => setTimeout(r, 250));
  }
  const kill = async () => {
    if (child.pid !== undefined && child.exitCode === null) process.kill(-child.pid, "SIGKILL");
    await exited;
  };
  return { origin, kill } satisfies DevServer;
}
