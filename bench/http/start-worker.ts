/**
 * Starts the bench Worker under `wrangler dev` (programmatic API) on 127.0.0.1, on a free port. It runs
 * from a copy of the sources: wrangler's bundler always watches its inputs and restarts the Worker when
 * one changes, which would break a run mid-way whenever someone edits `src/` meanwhile.
 */
import { cp, mkdtemp, rm, symlink } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { unstable_startWorker } from "wrangler";

export interface BenchWorker {
  /** The Worker's origin, `http://127.0.0.1:<port>`. */
  origin: string;
  dispose(): Promise<void>;
}

/** Copies what the bundle reads into a fresh temporary directory, with the same layout. */
async function snapshot(): Promise<string> {
  const root = fileURLToPath(new URL("../../", import.meta.url));
  const dir = await mkdtemp(join(tmpdir(), "baton-bench-"));
  const skipState = (path: string) => !path.includes(".wrangler");
  await cp(join(root, "src"), join(dir, "src"), { recursive: true });
  for (const folder of ["bench/http", "bench/webhooks"])
    await cp(join(root, folder), join(dir, folder), { recursive: true, filter: skipState });
  for (const file of ["package.json", "tsconfig.json", "wrangler.toml"])
    await cp(join(root, file), join(dir, file));
  await symlink(join(root, "node_modules"), join(dir, "node_modules"), "dir");
  return dir;
}

export interface StartOptions {
  /** The wrangler config, relative to the repo root. Default the bench Worker's. */
  config?: string;
  /** Plain-text vars added to the Worker's env. */
  vars?: Record<string, string>;
  /** Opens workerd's inspector on this port of 127.0.0.1 (a CPU profile of the Worker); off by default. */
  inspectorPort?: number;
  /**
   * Keeps the Durable Objects' storage on disk, under the copy (removed with it), instead of in workerd's
   * memory, where every object the bench wakes would stay resident with its data (the scale bench).
   */
  persistOnDisk?: boolean;
}

/** Starts the Worker with the fake model as its `openai-compatible` endpoint; `dispose` stops it and removes the copy. */
export async function startBenchWorker(
  modelBaseUrl: string,
  options: StartOptions = {},
): Promise<BenchWorker> {
  process.env.WRANGLER_SEND_METRICS = "false";
  // Miniflare would otherwise fetch the `Request.cf` placeholder from workers.cloudflare.com: stay local.
  process.env.CLOUDFLARE_CF_FETCH_ENABLED = "false";
  const dir = await snapshot();
  try {
    const worker = await unstable_startWorker({
      config: join(dir, options.config ?? "bench/http/wrangler.toml"),
      sendMetrics: false,
      envFiles: [],
      bindings: {
        ALLOW_UNAUTHENTICATED: { type: "plain_text", value: "true" },
        OPENAI_COMPATIBLE_BASE_URL: { type: "plain_text", value: modelBaseUrl },
        ...Object.fromEntries(
          Object.entries(options.vars ?? {}).map(([k, value]) => [k, { type: "plain_text" as const, value }]),
        ),
      },
      dev: {
        server: { hostname: "127.0.0.1", port: 0 },
        inspector:
          options.inspectorPort === undefined
            ? false
            : { hostname: "127.0.0.1", port: options.inspectorPort },
        persist: options.persistOnDisk ? join(dir, ".bench-state") : false,
        watch: false,
        // BENCH_LOG=debug shows wrangler's own log, request by request.
        logLevel: process.env.BENCH_LOG === "debug" ? "debug" : "warn",
      },
    });
    await worker.ready;
    const url = await worker.url;
    return {
      origin: url.origin,
      dispose: async () => {
        await worker.dispose();
        await rm(dir, { recursive: true, force: true });
      },
    };
  } catch (error) {
    await rm(dir, { recursive: true, force: true });
    throw error;
  }
}
