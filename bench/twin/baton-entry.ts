/** The Baton side's process (bundled by `twin-bench.ts` as a Worker would be: one file, NODE_ENV production). */
import { batonSide } from "./baton-side.js";
import { runSide } from "./side-run.js";

await runSide("baton", batonSide());
