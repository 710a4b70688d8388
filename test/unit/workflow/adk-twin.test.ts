/**
 * The workflow twin: every scenario of `bench/twin/workflow/scenarios.ts` runs on ADK TS 2.0 (`@google/adk`)
 * and on Baton with the same scripted model, and the stored events must agree (`compare.ts` says how they
 * are reduced, and what differs by design).
 */
import { describe, expect, it } from "vitest";
import { runOnAdk } from "../../../bench/twin/workflow/adk-workflows.js";
import { runOnBaton } from "../../../bench/twin/workflow/baton-workflows.js";
import { adkShapes, batonShapes, byBranch, ordered } from "../../../bench/twin/workflow/compare.js";
import { SCENARIOS } from "../../../bench/twin/workflow/scenarios.js";

describe("the workflow twin: Baton's events are ADK TS 2.0's", () => {
  it.each(SCENARIOS.map((s) => [s.name, s] as const))("%s", async (_name, scenario) => {
    const adk = adkShapes(await runOnAdk(scenario));
    const baton = batonShapes(await runOnBaton(scenario));
    expect(ordered(baton)).toEqual(ordered(adk));
    expect(byBranch(baton)).toEqual(byBranch(adk));
    expect(baton).toHaveLength(adk.length);
  });
});
