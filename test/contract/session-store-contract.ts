import { describe } from "vitest";
import { appendCases } from "./append-cases.js";
import type { HarnessSetup } from "./fixtures.js";
import { pageCases } from "./page-cases.js";
import { resumeCases } from "./resume-cases.js";
import { sessionCases } from "./sessions-cases.js";
import { traceCases } from "./trace-cases.js";
import { turnCases } from "./turn-cases.js";

export type { HarnessSetup, SessionStoreHarness } from "./fixtures.js";

/**
 * The `SessionStore` contract (ADK-SEMANTICS §4 plus Baton's leases), run against every implementation.
 * `setup` gives a fresh store before each test; each test also works in an app of its own.
 */
export function describeSessionStoreContract(label: string, setup: HarnessSetup): void {
  describe(`SessionStore contract: ${label}`, () => {
    sessionCases(setup);
    pageCases(setup);
    appendCases(setup);
    turnCases(setup);
    traceCases(setup);
    resumeCases(setup);
  });
}
