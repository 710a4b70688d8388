import type { CaseRef } from "./data-dir.js";

/** The cases a run plays: those named (all when none is), and the names that match no case. */
export interface Selection {
  found: CaseRef[];
  missing: string[];
}

/**
 * The cases `names` pick out of `cases`, in the runner's (category, name) order. A name is
 * `category/name` or just `name`; one that matches nothing is returned in `missing`.
 */
export function selectCases(cases: readonly CaseRef[], names: readonly string[]): Selection {
  if (names.length === 0) return { found: [...cases], missing: [] };
  const matches = (ref: CaseRef, name: string) => name === `${ref.category}/${ref.name}` || name === ref.name;
  return {
    found: cases.filter((ref) => names.some((name) => matches(ref, name))),
    missing: names.filter((name) => !cases.some((ref) => matches(ref, name))),
  };
}
