import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { readCaseFiles } from "../../scripts/conformance/case-files.js";
import { runCase } from "./run-case.js";

/** Cases written by hand in ADK's recorded shapes (see the README there), played as the shared ones are. */
const CASES = join(dirname(fileURLToPath(import.meta.url)), "fixtures/adk-shapes");
const caseDir = (id: string): string => join(CASES, "tests", id);

describe("cases in ADK's shapes (replay over the HTTP API, in Node)", () => {
  it("replays a loop whose critic calls exit_loop, declared byte for byte as ADK declares it", async () => {
    const dir = caseDir("workflow/loop_exit_001");
    const report = await runCase(dir, readCaseFiles(dir), CASES);
    expect(report.problems).toEqual([]);
  });
});
