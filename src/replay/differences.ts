/** Where two JSON values differ, as `path: expected …, got …` lines (the mismatch messages of the suite). */

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

const MAX_SHOWN = 160;
/** Strings longer than this are reported by their first differing character instead of whole. */
const LONG_STRING = 80;

const show = (value: unknown): string => {
  if (value === undefined) return "(missing)";
  const text = JSON.stringify(value);
  return text.length > MAX_SHOWN ? `${text.slice(0, MAX_SHOWN)}…` : text;
};

/** Two long strings: the first differing character and a window around it, so the change is visible. */
function stringDifference(path: string, expected: string, actual: string): string {
  let at = 0;
  while (at < expected.length && expected[at] === actual[at]) at++;
  const from = Math.max(0, at - 40);
  const window = (s: string) => JSON.stringify(s.slice(from, at + 40));
  return `${path}: strings differ at character ${at}: expected …${window(expected)}…, got …${window(actual)}…`;
}

/**
 * Every difference between `expected` and `actual` (up to `limit`), each with its JSON path. Objects are
 * compared key by key (a key missing on one side is a difference), arrays element by element.
 */
export function differences(expected: unknown, actual: unknown, path = "$", limit = 20): string[] {
  const out: string[] = [];
  const walk = (e: unknown, a: unknown, at: string): void => {
    if (out.length >= limit) return;
    if (Array.isArray(e) && Array.isArray(a)) {
      if (e.length !== a.length) out.push(`${at}: expected ${e.length} items, got ${a.length}`);
      for (let i = 0; i < Math.min(e.length, a.length); i++) walk(e[i], a[i], `${at}[${i}]`);
      return;
    }
    if (isRecord(e) && isRecord(a)) {
      const keys = [...new Set([...Object.keys(e), ...Object.keys(a)])].sort();
      for (const key of keys) walk(e[key], a[key], `${at}.${key}`);
      return;
    }
    if (
      typeof e === "string" &&
      typeof a === "string" &&
      e !== a &&
      Math.max(e.length, a.length) > LONG_STRING
    ) {
      out.push(stringDifference(at, e, a));
      return;
    }
    if (!Object.is(e, a)) out.push(`${at}: expected ${show(e)}, got ${show(a)}`);
  };
  walk(expected, actual, path);
  return out;
}
