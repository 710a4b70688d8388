/** `npm run bench`: every benchmark prints ratios measured side by side in this one run. */
import { httpBench } from "./http/http-bench.js";
import { inProcessBench } from "./inprocess/inprocess-bench.js";
import { routingBench } from "./routing.js";
import { webhookBench } from "./webhooks/webhook-bench.js";

// `npm run bench -- routing`, `-- inprocess`, `-- http` or `-- webhooks` runs one of them.
const only = process.argv[2];
if (!only || only === "routing") routingBench();
if (!only || only === "inprocess") await inProcessBench();
if (!only || only === "http") await httpBench();
if (!only || only === "webhooks") await webhookBench();
