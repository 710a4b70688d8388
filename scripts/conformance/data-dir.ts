import { existsSync, readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository root: two levels above this folder (`test/conformance`). */
const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");

/** The ADK conformance data, laid beside the clone as `shared/` (locally and in CI). */
export const CONFORMANCE_DIR = resolve(REPO_ROOT, "../shared/conformance/adk");

/** Set to `1` (as `.ci/run` does) and missing data fails the suite instead of skipping it. */
export const REQUIRE_ENV = "BATON_REQUIRE_CONFORMANCE";

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

/** Why the data cannot be used, naming the expected location. */
const missingMessage = (tests: string): string =>
  `ADK conformance data not found: expected ${tests} (the repo's ../shared/conformance/adk). ` +
  "Lay the shared/ folder beside the clone, as CI does.";

/**
 * Every case under `tests/`, sorted by (category, name) as the Python runner sorts them. Throws with the
 * expected location when the data is not there.
 */
export function discoverCases(root: string = CONFORMANCE_DIR): CaseRef[] {
  const tests = join(root, "tests");
  if (!existsSync(tests)) throw new Error(missingMessage(tests));
  const cases = subfolders(tests).flatMap((category) =>
    subfolders(join(tests, category))
      .filter((name) => existsSync(join(tests, category, name, "spec.yaml")))
      .map((name) => ({ category, name, dir: join(tests, category, name) })),
  );
  if (cases.length === 0) throw new Error(`No conformance case (a folder with spec.yaml) under ${tests}.`);
  return cases;
}

/** The case `category/name`; throws naming it when the data does not hold it. */
export function caseNamed(id: string, root: string = CONFORMANCE_DIR): CaseRef {
  const found = discoverCases(root).find((ref) => `${ref.category}/${ref.name}` === id);
  if (!found) throw new Error(`conformance case ${id} not found under ${join(root, "tests")}`);
  return found;
}

/**
 * Why the replay is skipped, or `undefined` when it runs. A clone without `../shared` skips it (the
 * README's `npm test` must pass anywhere); with `BATON_REQUIRE_CONFORMANCE=1` missing data is never a
 * skip: the suites then fail with the expected location.
 */
export function skipReason(
  env: Readonly<Record<string, string | undefined>> = process.env,
  root: string = CONFORMANCE_DIR,
): string | undefined {
  const tests = join(root, "tests");
  if (existsSync(tests) || env[REQUIRE_ENV] === "1") return undefined;
  return `no conformance data at ${tests} (the repo's ../shared/conformance/adk); set ${REQUIRE_ENV}=1 to make this a failure`;
}
