import { describe, expect, it } from "vitest";
import { type CaseFiles, readCaseFiles } from "./case-files.js";
import { type CaseRef, discoverCases } from "./data-dir.js";
import { runCase } from "./run-case.js";

const asError = (error: unknown): Error => (error instanceof Error ? error : new Error(String(error)));

/** Discovered when the file loads; a missing data folder becomes a failing test, never a skip. */
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

const found = casesOrError();

describe("ADK conformance cases (replay over the HTTP API, in Node)", () => {
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
