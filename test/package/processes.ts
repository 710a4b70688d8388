import { execFile, spawn } from "node:child_process";

/**
 * The environment of the commands a user would type: this process's own, without what `npm test` and
 * vitest set for themselves (npm_* lifecycle variables, VITEST*), so a nested `npm install` or `npm test`
 * behaves as in a fresh shell. npm's cache and registry settings stay: they are the user's.
 */
export function userEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [key, value] of Object.entries(process.env)) {
    const npmOwn = /^npm_/i.test(key) && !/^npm_config_(cache|registry|userconfig)$/i.test(key);
    if (npmOwn || key.startsWith("VITEST") || key === "NODE_OPTIONS") continue;
    env[key] = value;
  }
  // npm puts this checkout's node_modules/.bin on PATH for `npm test`; a fresh shell has none of it.
  const path = (env.PATH ?? "")
    .split(":")
    .filter((dir) => !dir.endsWith("node_modules/.bin"))
    .join(":");
  return { ...env, PATH: path, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" };
}

export interface Ran {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end and reports how it ended; never throws for a non-zero exit. */
export function run(
  command: string,
  args: readonly string[],
  cwd: string,
  timeoutMs = 600_000,
): Promise<Ran> {
  return new Promise((resolve) => {
    execFile(
      command,
      args,
      { cwd, env: userEnv(), timeout: timeoutMs, maxBuffer: 64 * 1024 * 1024, killSignal: "SIGKILL" },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        resolve({ code, stdout: String(stdout), stderr: String(stderr) });
      },
    );
  });
}

export interface DevServer {
  /** `http://127.0.0.1:<port>`, the port wrangler chose. */
  url: string;
  /** Stops the whole process group (npm, wrangler, workerd) and waits until none of it is left. */
  stop(): Promise<void>;
}

const groupAlive = (pid: number): boolean => {
  try {
    process.kill(-pid, 0);
    return true;
  } catch {
    // ESRCH: no process of the group is left.
    return false;
  }
};

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * `npm run dev -- --port 0` in `cwd`, in a process group of its own so that stopping it stops wrangler's
 * workerd children too. Resolves once wrangler prints the address it listens on.
 */
export function startDev(cwd: string, timeoutMs = 180_000): Promise<DevServer> {
  const child = spawn("npm", ["run", "dev", "--", "--port", "0"], {
    cwd,
    env: userEnv(),
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const pid = child.pid;
  if (pid === undefined) return Promise.reject(new Error("npm run dev did not start."));
  const stop = async () => {
    for (const [signal, waitMs] of [
      ["SIGTERM", 15_000],
      ["SIGKILL", 5_000],
    ] as const) {
      if (!groupAlive(pid)) return;
      process.kill(-pid, signal);
      for (let waited = 0; waited < waitMs && groupAlive(pid); waited += 100) await pause(100);
    }
    if (groupAlive(pid)) throw new Error(`npm run dev (process group ${pid}) outlived SIGKILL.`);
  };
  return new Promise((resolve, reject) => {
    let output = "";
    const timer = setTimeout(() => {
      void stop().then(() => reject(new Error(`npm run dev printed no address in time:\n${output}`)));
    }, timeoutMs);
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const ready = /Ready on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (ready?.[1]) {
        clearTimeout(timer);
        resolve({ url: ready[1], stop });
      }
    };
    child.stdout.on("data", read);
    child.stderr.on("data", read);
    child.on("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`npm run dev exited (${code}) before it served:\n${output}`));
    });
  });
}
