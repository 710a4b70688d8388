/**
 * Word matching for the `demo:` model. A text's keywords are its lower-cased words of three or more
 * letters or digits, minus common stop words, with a plural `s`/`es`/`ies` reduced (refunds → refund,
 * cities → city). Scores are the number of distinct keywords two texts share.
 */

const STOP_WORDS = new Set(
  (
    "the and for are but not you your yours with about this that these those from into what when where " +
    "which who whom why how can could would should will shall may might must have has had does did doing " +
    "was were been being there their them they then than also just only very some any all each other " +
    "please thanks thank hello hey get got give tell show know want need like make let our out use used " +
    "agent agents question questions answer answers help helps user users its it's i'm here today"
  ).split(" "),
);

/** Reduces a plural to its singular in the few regular cases that matter for matching. */
export function stem(word: string): string {
  if (word.length > 4 && word.endsWith("ies")) return `${word.slice(0, -3)}y`;
  if (word.length > 4 && /(ches|shes|sses|xes)$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith("s") && !word.endsWith("ss")) return word.slice(0, -1);
  return word;
}

/** The keywords of a text (see the module comment); snake_case and kebab-case names split into words. */
export function keywords(text: string): Set<string> {
  const words = text.toLowerCase().split(/[^a-z0-9]+/);
  return new Set(words.filter((w) => w.length >= 3 && !STOP_WORDS.has(w)).map(stem));
}

/** How many keywords the two sets share. */
export function overlap(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  let count = 0;
  for (const word of a) if (b.has(word)) count++;
  return count;
}

/** The user's words as written (punctuation trimmed), for use as argument values. */
export function rawWords(text: string): string[] {
  return text
    .split(/\s+/)
    .map((w) => w.replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, ""))
    .filter((w) => w !== "");
}

/** The first number written in the text, if any. */
export function firstNumber(text: string): number | undefined {
  const match = /-?\d+(?:\.\d+)?/.exec(text);
  return match ? Number.parseFloat(match[0]) : undefined;
}
