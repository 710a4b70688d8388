/**
 * `npm run fuzz -- --requests 3000 --seed 7`: the workerd fuzz test (test/workers/fuzz) at a size of your
 * choosing, printing its figures (statuses, 5xx, stored changes, seconds). `npm test` runs it small, with a
 * seed of its own each run.
 */
import { spawnSync } from "node:child_process";
import { parseArgs } from "node:util";

// Without --seed, a new one each run (printed by the test, so a failure can be replayed with it).
const { values } = parseArgs({
  options: {
    requests: { type: "string", default: "3000" },
    seed: { type: "string", default: String(Math.floor(Math.random() * 2 ** 31)) },
  },
});
for (const [name, value] of Object.entries(values)) {
  if (!/^\d+$/.test(value)) {
    console.error(`--${name} must be a whole number, not "${value}".`);
    process.exit(2);
  }
}
const result = spawnSync("npx", ["vitest", "run", "--project", "workers", "test/workers/fuzz"], {
  stdio: "inherit",
  env: {
    ...process.env,
    WRANGLER_SEND_METRICS: "false",
    BATON_FUZZ_REQUESTS: values.requests,
    BATON_FUZZ_SEED: values.seed,
    BATON_FUZZ_REPORT: "1",
  },
});
process.exit(result.status ?? 1);
