import { fileURLToPath } from "node:url";
import { unstable_startWorker } from "wrangler";
import { ASSETS_ROOT } from "../../scripts/fetch-dev-ui.js";

export interface DevWorker {
  origin: string;
  dispose(): Promise<void>;
}

/** The demo Worker under `wrangler dev` as `npm run dev` runs it (dev UI assets, DEV_UI), on a free port. */
export async function startDevWorker(vars: Record<string, string> = {}): Promise<DevWorker> {
  process.env.WRANGLER_SEND_METRICS = "false";
  // Miniflare would otherwise fetch the `Request.cf` placeholder from workers.cloudflare.com: stay local.
  process.env.CLOUDFLARE_CF_FETCH_ENABLED = "false";
  const plain = (value: string) => ({ type: "plain_text" as const, value });
  const worker = await unstable_startWorker({
    config: fileURLToPath(new URL("../../wrangler.toml", import.meta.url)),
    assets: ASSETS_ROOT,
    sendMetrics: false,
    envFiles: [],
    bindings: {
      ALLOW_UNAUTHENTICATED: plain("true"),
      DEV_UI: plain("true"),
      ...Object.fromEntries(Object.entries(vars).map(([k, v]) => [k, plain(v)])),
    },
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
