/** `npm run bench`: every benchmark prints ratios measured side by side in this one run. */
import { routingBench } from "./routing.js";

const only = process.argv[2];
if (!only || only === "routing") routingBench();
