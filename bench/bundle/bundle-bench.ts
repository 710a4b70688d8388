/**
 * `npm run bench -- bundle`: what `wrangler deploy` would upload with this repo's wrangler.toml (minified,
 * no `keep_names`, the lean zod aliases: docs/deploying.md "Bundle size"), gzipped, for the demo Worker (wrangler.toml's
 * `main`) and for a Worker whose only models are `openai-compatible:` ones, with each package's share from
 * esbuild's metafile; and the same unminified, for comparison.
 */
import { packageShares } from "./package-shares.js";
import { wranglerBuild } from "./wrangler-build.js";

interface Bundle {
  label: string;
  /** The entry, relative to the repo; `undefined` is wrangler.toml's `main`. */
  entry: string | undefined;
  targetKiB: number;
}

/**
 * The Workers measured, and the gzip size each must stay within (test/unit/entries checks the second).
 * Issue 12 set 250 and 150 KiB; issues 24, 25, 28 and 29 (MCP, A2A's HTTP+JSON binding, schedules and
 * reminders, compaction) grew both to 252 and 160.5 KiB, and the limits were raised to 260 and 165 with
 * that growth named (docs/benchmarks.md, "Bundle size"). The next round's features went into opt-in
 * entries (evals, artifacts, Vectorize memory, replay), which kept a Worker that does not use them within
 * 165; the demo Worker opts in to every one of them, and its limit is 280 (docs/benchmarks.md). Durable
 * turns' last pieces are in every Worker: HTTP turns run and resumed in the session's object (decision 040),
 * the stored enqueue line (028) and the shard's resend of unsent turns (038): +3.2 KiB, limit 168. Their
 * second round (decision 047: resume at once, the dead turn first, no call left open, `latest`, `merge`
 * and debounce) is in every Worker too: 166.8 → 169.5 KiB, limit 170. Hold round three (decision 048) put
 * the artifact ledger, mail thread membership, the push address checks, the Host check and the one body
 * guard in every Worker: +2.7 KiB (demo +4.1); with 046's pages and 047 beside them, 171.8 and 286.1
 * KiB: limits 173 and 288. ADK 2.x (issue 45, decision 049): a Worker without workflows pays for the 2.x
 * event fields every Worker reads, the node error codes, task mode's `finish_task` and the dev UI's graph
 * levels (171.84 → 173.58 KiB against main at ea5a3e4); the demo Worker runs a workflow app, so it bundles
 * the workflow runtime (286.13 → 299.98 KiB, +13.9; the issue allows 25): limits 175 and 301. With MCP's
 * protected-resource metadata and CORS (issue 44) and the demo model's identifiers (issue 47) on the same
 * tree: 174.0 and 301.7 KiB, limit 303 for the demo Worker. MCP 2026-07-28 on the server side (issue 44,
 * decision 053) serves `/mcp/<app>` with the v2 SDK (`@modelcontextprotocol/server` and `/core`, 211 KiB
 * raw) while McpToolset still bundles the v1 SDK (73 KiB raw) and its Ajv (ajv, ajv-formats, fast-uri: 130
 * KiB raw): the demo Worker went 301.7 → 351.3 KiB, limit 353, until the client side moves to v2 and the v1
 * SDK (with Ajv) leaves the bundle. A Worker without MCP is unchanged (174.0 KiB). MCP's Tasks extension
 * (decision 057: turn and served-tool tasks over the A2A task store) grew the demo Worker 351.3 → 353.7
 * KiB. McpToolset on the v2 client (decision 054) took the v1 SDK and Ajv out: 339.4 KiB. Live calls
 * (issue 46, decision 055: the `/run_live` route, the session object's live sockets, the live runner and
 * the `demo:` live model) are in every Worker: +4.5 KiB each (174.0 → 178.5, 339.4 → 343.9, measured at
 * 99da48a and its next merge). With the three merged: 178.5 and 346.3 KiB, limits 180 and 348.
 */
export const BUNDLES: readonly Bundle[] = [
  { label: "demo Worker (wrangler.toml main)", entry: undefined, targetKiB: 348 },
  { label: "openai-compatible only", entry: "bench/bundle/openai-compatible-worker.ts", targetKiB: 180 },
];

const kib = (n: number) => `${n.toFixed(1)} KiB`;

export async function bundleBench(): Promise<void> {
  console.log(
    "\nWorker bundle (wrangler deploy --dry-run with wrangler.toml's settings, gzip of the script):",
  );
  for (const bundle of BUNDLES) {
    const deployed = await wranglerBuild(bundle.entry);
    const unminified = await wranglerBuild(bundle.entry, { minify: false });
    const verdict = deployed.gzipKiB <= bundle.targetKiB ? "meets" : "misses";
    console.log(
      `  ${bundle.label}: ${kib(deployed.gzipKiB)} gzip (${kib(deployed.rawKiB)} raw; ${verdict} the ≤ ${bundle.targetKiB} KiB target); unminified ${kib(unminified.gzipKiB)} gzip`,
    );
    const shares = packageShares(deployed.metafile);
    const top = shares.slice(0, 6).map((p) => `${p.name} ${(p.share * 100).toFixed(0)}%`);
    console.log(`    biggest (share of raw bytes): ${top.join(", ")}`);
  }
}
