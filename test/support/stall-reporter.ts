// A vitest reporter for CI (`.ci/run`): when no test file has ended for a while, it says which files are still
// running and for how long, so a run that stalls names its file in the log's last lines; past a longer
// stall it ends the run with a failure instead of waiting for CI's own timeout. Prints nothing otherwise.
import type { Reporter, TestModule } from "vitest/node";

const minutes = (name: string, fallback: number): number => {
  const value = Number(process.env[name]);
  return Number.isFinite(value) && value > 0 ? value : fallback;
};

/** Quiet this long (no file ended) before the reporter names the running files; again each time after. */
const WARN_MS = minutes("BATON_STALL_WARN_MINUTES", 5) * 60_000;
/** Quiet this long before the run is ended as stalled. */
const FAIL_MS = minutes("BATON_STALL_FAIL_MINUTES", 25) * 60_000;

export default class StallReporter implements Reporter {
  readonly #running = new Map<string, number>();
  #lastEnd = Date.now();
  #lastWarning = 0;
  #timer: NodeJS.Timeout | undefined;

  onTestRunStart(): void {
    this.#lastEnd = Date.now();
    this.#timer = setInterval(() => this.#check(), Math.min(30_000, WARN_MS / 2));
    this.#timer.unref();
  }

  onTestModuleStart(module: TestModule): void {
    this.#running.set(`${module.project.name} ${module.relativeModuleId}`, Date.now());
  }

  onTestModuleEnd(module: TestModule): void {
    this.#running.delete(`${module.project.name} ${module.relativeModuleId}`);
    this.#lastEnd = Date.now();
  }

  onTestRunEnd(): void {
    clearInterval(this.#timer);
  }

  #check(): void {
    const now = Date.now();
    const quiet = now - this.#lastEnd;
    if (quiet < WARN_MS || now - this.#lastWarning < WARN_MS) return;
    this.#lastWarning = now;
    const files = [...this.#running].map(
      ([file, since]) => `  ${file} (${Math.round((now - since) / 1000)} s)`,
    );
    const list =
      files.length > 0 ? files.join("\n") : "  (none: the run waits on a pool, a hook or a teardown)";
    console.error(
      `[stall] no test file has ended for ${Math.round(quiet / 1000)} s; still running:\n${list}`,
    );
    if (quiet >= FAIL_MS) {
      console.error(`[stall] ending the run: no test file ended for ${Math.round(quiet / 1000)} s.`);
      process.exit(1);
    }
  }
}
