import { describe, expect, it } from "vitest";
import { type ChaosReport, formatReport, runChaos } from "./chaos-run.js";

/**
 * The chaos run in the suite: a short seeded run (two kills, the turns in the object). `npm run chaos --
 * --rounds 120 --seed 7` runs a long one, with the webhook and cron turns that wait out the default lease.
 */
const ROUNDS = Number(process.env.BATON_CHAOS_ROUNDS ?? 2);
const SEED = Number(process.env.BATON_CHAOS_SEED ?? 4242);
const OUTSIDE_EVERY = Number(process.env.BATON_CHAOS_OUTSIDE_EVERY ?? 0);
/** Each round: its messages, a kill, a restart and the checks; outside rounds wait out a lease. */
const ROUND_MS = 45_000;
const OUTSIDE_ROUND_MS = 240_000;
const outsideRounds = OUTSIDE_EVERY > 0 ? Math.floor(ROUNDS / OUTSIDE_EVERY) : 0;
const budget = 60_000 + ROUNDS * ROUND_MS + outsideRounds * OUTSIDE_ROUND_MS;

describe("the chaos run", () => {
  it(
    "answers every message exactly once and in order, calls no charge twice, leaves no call unanswered and no session busy, whatever the kills cut off",
    async () => {
      const report: ChaosReport = await runChaos({
        rounds: ROUNDS,
        seed: SEED,
        outsideEvery: OUTSIDE_EVERY,
        log: (line) => console.log(line),
      });
      console.log(formatReport(report, SEED));
      expect(report.kills).toBe(ROUNDS);
      expect(report.resumes.length).toBeGreaterThan(0);
      expect(report.violations).toEqual([]);
    },
    budget,
  );
});
