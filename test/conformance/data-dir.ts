import { existsSync, readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root: two levels above this folder (`test/conformance`). */
const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** The ADK conformance data, laid beside the clone as `shared/` (locally and in CI). */
export const CONFORMANCE_DIR = resolve(REPO_ROOT, "../shared/conformance/adk");

/** One case folder: `tests/<category>/<name>/`. */
export interface CaseRef {
  category: string;
  name: string;
  /** Absolute path of the case folder (the replay config's `dir`). */
  dir: string;
}

const subfolders = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name)
    .sort();

/**
 * Every case under `tests/`, sorted by (category, name) as the Python runner sorts them. Throws with the
 * expected location when the data is not there: a missing folder must fail the suite, never skip it.
 */
export function discoverCases(root: string = CONFORMANCE_DIR): CaseRef[] {
  const tests = join(root, "tests");
  if (!existsSync(tests)) {
    throw new Error(
      `ADK conformance data not found: expected ${tests} (the repo's ../shared/conformance/adk). ` +
        "Lay the shared/ folder beside the clone, as CI does.",
    );
  }
  const cases = subfolders(tests).flatMap((category) =>
    subfolders(join(tests, category))
      .filter((name) => existsSync(join(tests, category, name, "spec.yaml")))
      .map((name) => ({ category, name, dir: join(tests, category, name) })),
  );
  if (cases.length === 0) throw new Error(`No conformance case (a folder with spec.yaml) under ${tests}.`);
  return cases;
}
