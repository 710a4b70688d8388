/**
 * The Porter stemmer as NLTK runs it by default (`PorterStemmer()`, mode `NLTK_EXTENSIONS`), which is what
 * `rouge_score`, and so ADK's `response_match_score`, stems with. Porter's 1980 algorithm plus NLTK's
 * changes: a pool of irregular forms, `-ies`/`-ied` on four-letter words, `y → i` only after a consonant
 * that is not the word's only letter, `*o` true for a two-letter vowel-consonant stem, `-bli → -ble`,
 * `-alli` handled before the other step-2 rules, `-fulli` and `-logi`, and words of two letters or fewer
 * kept. Written from the algorithm's description and checked word for word against NLTK 3.8
 * (`test/unit/evals/porter.test.ts`, decision 034).
 */

import { lookupTable } from "../core/lookup-table.js";

/** NLTK's irregular forms, answered before any rule. */
const POOL: Readonly<Record<string, string>> = lookupTable({
  sky: "sky",
  skies: "sky",
  dying: "die",
  lying: "lie",
  tying: "tie",
  news: "news",
  innings: "inning",
  inning: "inning",
  outings: "outing",
  outing: "outing",
  cannings: "canning",
  canning: "canning",
  howe: "howe",
  proceed: "proceed",
  exceed: "exceed",
  succeed: "succeed",
});

const VOWELS = new Set(["a", "e", "i", "o", "u"]);

/** A letter other than a vowel, and other than a `y` that follows a consonant. */
function isConsonant(word: string, i: number): boolean {
  const ch = word[i] ?? "";
  if (VOWELS.has(ch)) return false;
  if (ch === "y") return i === 0 ? true : !isConsonant(word, i - 1);
  return true;
}

/** m in [C](VC){m}[V]: how many vowel-consonant boundaries the stem has. */
function measure(stem: string): number {
  let m = 0;
  for (let i = 1; i < stem.length; i++) if (!isConsonant(stem, i - 1) && isConsonant(stem, i)) m++;
  return m;
}

const positive = (stem: string) => measure(stem) > 0;
const aboveOne = (stem: string) => measure(stem) > 1;

function containsVowel(stem: string): boolean {
  for (let i = 0; i < stem.length; i++) if (!isConsonant(stem, i)) return true;
  return false;
}

/** *d: the word ends with a double consonant. */
const endsDouble = (word: string): boolean =>
  word.length >= 2 && word.at(-1) === word.at(-2) && isConsonant(word, word.length - 1);

/** *o: consonant-vowel-consonant at the end, the last not w, x or y; or (NLTK) a two-letter vowel-consonant word. */
function endsCvc(word: string): boolean {
  const n = word.length;
  if (n === 2) return !isConsonant(word, 0) && isConsonant(word, 1);
  return (
    n >= 3 &&
    isConsonant(word, n - 3) &&
    !isConsonant(word, n - 2) &&
    isConsonant(word, n - 1) &&
    !["w", "x", "y"].includes(word.at(-1) ?? "")
  );
}

/** `[suffix, replacement, condition on the stem]`; `"*d"` is the double-consonant rule. */
type Rule = readonly [suffix: string, replacement: string, condition?: (stem: string) => boolean];

/** The first rule whose suffix the word has decides: its replacement if the condition holds, else the word. */
function applyRules(word: string, rules: readonly Rule[]): string {
  for (const [suffix, replacement, condition] of rules) {
    if (suffix === "*d" && endsDouble(word)) {
      const stem = word.slice(0, -2);
      return !condition || condition(stem) ? stem + replacement : word;
    }
    if (suffix !== "*d" && word.endsWith(suffix)) {
      const stem = word.slice(0, word.length - suffix.length);
      return !condition || condition(stem) ? stem + replacement : word;
    }
  }
  return word;
}

function step1a(word: string): string {
  if (word.endsWith("ies") && word.length === 4) return `${word.slice(0, -3)}ie`;
  return applyRules(word, [
    ["sses", "ss"],
    ["ies", "i"],
    ["ss", "ss"],
    ["s", ""],
  ]);
}

function step1b(word: string): string {
  if (word.endsWith("ied")) return `${word.slice(0, -3)}${word.length === 4 ? "ie" : "i"}`;
  if (word.endsWith("eed")) {
    const stem = word.slice(0, -3);
    return measure(stem) > 0 ? `${stem}ee` : word;
  }
  let stem: string | undefined;
  for (const suffix of ["ed", "ing"]) {
    if (!word.endsWith(suffix)) continue;
    const candidate = word.slice(0, word.length - suffix.length);
    if (containsVowel(candidate)) {
      stem = candidate;
      break;
    }
  }
  if (stem === undefined) return word;
  const last = stem.at(-1) ?? "";
  return applyRules(stem, [
    ["at", "ate"],
    ["bl", "ble"],
    ["iz", "ize"],
    ["*d", last, () => !["l", "s", "z"].includes(last)],
    ["", "e", (s) => measure(s) === 1 && endsCvc(s)],
  ]);
}

const step1c = (word: string): string =>
  applyRules(word, [["y", "i", (stem) => stem.length > 1 && isConsonant(stem, stem.length - 1)]]);

function step2(word: string): string {
  if (word.endsWith("alli") && positive(word.slice(0, -4))) return step2(`${word.slice(0, -4)}al`);
  return applyRules(word, [
    ["ational", "ate", positive],
    ["tional", "tion", positive],
    ["enci", "ence", positive],
    ["anci", "ance", positive],
    ["izer", "ize", positive],
    ["bli", "ble", positive],
    ["alli", "al", positive],
    ["entli", "ent", positive],
    ["eli", "e", positive],
    ["ousli", "ous", positive],
    ["ization", "ize", positive],
    ["ation", "ate", positive],
    ["ator", "ate", positive],
    ["alism", "al", positive],
    ["iveness", "ive", positive],
    ["fulness", "ful", positive],
    ["ousness", "ous", positive],
    ["aliti", "al", positive],
    ["iviti", "ive", positive],
    ["biliti", "ble", positive],
    ["fulli", "ful", positive],
    // NLTK measures the word less "ogi" here, not the stem less "logi".
    ["logi", "log", () => positive(word.slice(0, -3))],
  ]);
}

const step3 = (word: string): string =>
  applyRules(word, [
    ["icate", "ic", positive],
    ["ative", "", positive],
    ["alize", "al", positive],
    ["iciti", "ic", positive],
    ["ical", "ic", positive],
    ["ful", "", positive],
    ["ness", "", positive],
  ]);

const step4 = (word: string): string =>
  applyRules(word, [
    ...["al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent"].map(
      (suffix): Rule => [suffix, "", aboveOne],
    ),
    ["ion", "", (stem) => aboveOne(stem) && ["s", "t"].includes(stem.at(-1) ?? "")],
    ...["ou", "ism", "ate", "iti", "ous", "ive", "ize"].map((suffix): Rule => [suffix, "", aboveOne]),
  ]);

function step5a(word: string): string {
  if (!word.endsWith("e")) return word;
  const stem = word.slice(0, -1);
  const m = measure(stem);
  return m > 1 || (m === 1 && !endsCvc(stem)) ? stem : word;
}

const step5b = (word: string): string => applyRules(word, [["ll", "l", () => aboveOne(word.slice(0, -1))]]);

/** The stem of a lowercase word, as NLTK's default `PorterStemmer().stem(word)` gives it. */
export function porterStem(word: string): string {
  const pooled = POOL[word];
  if (pooled !== undefined) return pooled;
  if (word.length <= 2) return word;
  return step5b(step5a(step4(step3(step2(step1c(step1b(step1a(word))))))));
}
