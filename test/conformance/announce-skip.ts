import { skipReason } from "../../scripts/conformance/data-dir.js";

/** The conformance project's global setup: says once, in the test output, that the replay is skipped and why. */
export default function announceSkip(): void {
  const reason = skipReason();
  // The one line a fresh clone's `npm test` prints about the replay; the skipped test carries it too.
  if (reason !== undefined) console.log(`ADK conformance replay skipped: ${reason}`);
}
