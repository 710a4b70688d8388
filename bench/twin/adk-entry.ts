/** The ADK side's process (bundled by `twin-bench.ts`, with `@google/adk` loaded from node_modules as built). */
import { adkSide } from "./adk-side.js";
import { runSide } from "./side-run.js";

await runSide("adk", adkSide());
