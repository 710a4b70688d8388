import { describe, expect, it } from "vitest";
import { type CaseFiles, readCaseFiles } from "../../scripts/conformance/case-files.js";
import { type CaseRef, discoverCases, skipReason } from "../../scripts/conformance/data-dir.js";
import { runCase } from "./run-case.js";

const asError = (error: unknown): Error => (error instanceof Error ? error : new Error(String(error)));

/**
 * Discovered when the file loads. Missing data is a skip only when `skipReason` allows it (a clone without
 * `../shared`); otherwise it becomes a failing test.
 */
function casesOrError(): CaseRef[] | Error {
  try {
    return discoverCases();
  } catch (error) {
    return asError(error);
  }
}

/** A case's files, or why they cannot be read (the test then fails with it). */
function filesOrError(ref: CaseRef): CaseFiles | Error {
  try {
    return readCaseFiles(ref.dir);
  } catch (error) {
    return asError(error);
  }
}

const skipped = skipReason();
const found = skipped === undefined ? casesOrError() : [];

describe("ADK conformance cases (replay over the HTTP API, in Node)", () => {
  if (skipped !== undefined) {
    it.skip(`ADK conformance replay skipped: ${skipped}`, () => undefined);
    return;
  }
  if (found instanceof Error) {
    it("finds the ADK conformance data", () => {
      throw found;
    });
    return;
  }
  for (const ref of found) {
    const files = filesOrError(ref);
    const id = `${ref.category}/${ref.name}`;
    it(files instanceof Error ? id : `${files.spec.description} [${id}]`, async () => {
      if (files instanceof Error) throw files;
      const report = await runCase(ref.dir, files);
      expect(report.problems).toEqual([]);
    });
  }
});
