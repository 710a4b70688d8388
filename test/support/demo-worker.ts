import { fileURLToPath } from "node:url";
import { unstable_startWorker } from "wrangler";

export interface DemoWorker {
  origin: string;
  dispose(): Promise<void>;
}

/**
 * The demo Worker (wrangler.toml) under `wrangler dev` on a free port of 127.0.0.1, with these vars, and
 * static `assets` served beside it when given (the dev UI). In-memory storage; `dispose` stops it.
 */
export async function startDemoWorker(
  vars: Record<string, string>,
  options: { assets?: string } = {},
): Promise<DemoWorker> {
  process.env.WRANGLER_SEND_METRICS = "false";
  // Miniflare would otherwise fetch the `Request.cf` placeholder from workers.cloudflare.com: stay local.
  process.env.CLOUDFLARE_CF_FETCH_ENABLED = "false";
  const worker = await unstable_startWorker({
    config: fileURLToPath(new URL("../../wrangler.toml", import.meta.url)),
    ...(options.assets ? { assets: options.assets } : {}),
    sendMetrics: false,
    envFiles: [],
    bindings: Object.fromEntries(
      Object.entries(vars).map(([k, value]) => [k, { type: "plain_text" as const, value }]),
    ),
    dev: {
      server: { hostname: "127.0.0.1", port: 0 },
      inspector: false,
      persist: false,
      watch: false,
      logLevel: "warn",
    },
  });
  await worker.ready;
  const url = await worker.url;
  return { origin: url.origin, dispose: () => worker.dispose() };
}
