/** `npm run bench`: every benchmark prints ratios measured side by side in this one run. */
import { bundleBench } from "./bundle/bundle-bench.js";
import { packedProjectsBench } from "./bundle/packed-projects.js";
import { httpBench } from "./http/http-bench.js";
import { inProcessBench } from "./inprocess/inprocess-bench.js";
import { routingBench } from "./routing.js";
import { scaleBench } from "./scale/scale-bench.js";
import { twinBench } from "./twin/twin-bench.js";
import { webhookBench } from "./webhooks/webhook-bench.js";

// `npm run bench -- routing`, `-- inprocess`, `-- twin`, `-- http`, `-- webhooks` or `-- bundle` runs one of them;
// `-- http a [runs]` (or `s`) only the HTTP figure (a) (or (s)), `runs` times back to back. `-- scale [small]`
// (decision 046) runs only when named: it grows 10,000 sessions, 1,000 users and a 100,000-event session.
const only = process.argv[2];
if (!only || only === "routing") routingBench();
if (!only || only === "inprocess") await inProcessBench();
if (!only || only === "twin") await twinBench();
if (!only || only === "http")
  await httpBench(
    process.argv[3] === "a" || process.argv[3] === "s"
      ? { only: process.argv[3], runs: Number(process.argv[4] ?? 1) }
      : {},
  );
if (!only || only === "webhooks") await webhookBench();
if (!only || only === "bundle") {
  await bundleBench();
  await packedProjectsBench();
}
if (only === "scale") await scaleBench(process.argv[3] === "small" ? "small" : "full");
