/**
 * `npm run chaos -- --rounds 120 --seed 7 [--outside-every 10]`: the chaos run (test/interop/chaos) at a size
 * of your choosing. `wrangler dev` with the default lease is SIGKILLed once a round, at a random point, while
 * turns are busy in every way the run knows; it is restarted on the same storage and every session is
 * checked. Prints rounds, kills, resumes, resume latency p50/p99 and each violation with its seed.
 * Every `--outside-every` rounds the webhook and cron turns run too (each waits out the 120 s lease).
 */
import { spawnSync } from "node:child_process";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    rounds: { type: "string", default: "20" },
    seed: { type: "string", default: "4242" },
    "outside-every": { type: "string", default: "10" },
  },
});
for (const [name, value] of Object.entries(values)) {
  if (!/^\d+$/.test(value)) {
    console.error(`--${name} must be a whole number, not "${value}".`);
    process.exit(2);
  }
}
const result = spawnSync(
  "npx",
  ["vitest", "run", "--project", "interop", "test/interop/chaos/chaos.test.ts"],
  {
    stdio: "inherit",
    env: {
      ...process.env,
      WRANGLER_SEND_METRICS: "false",
      BATON_CHAOS_ROUNDS: values.rounds,
      BATON_CHAOS_SEED: values.seed,
      BATON_CHAOS_OUTSIDE_EVERY: values["outside-every"],
    },
  },
);
process.exit(result.status ?? 1);
