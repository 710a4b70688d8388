import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { porterStem } from "../../../src/evals/porter.js";

/** `word stem` lines written by NLTK 3.8's `PorterStemmer()` (the fixture's header says which words). */
const NLTK = readFileSync(join(import.meta.dirname, "../fixtures/nltk-porter-stems.txt"), "utf8")
  .split("\n")
  .filter((line) => line !== "" && !line.startsWith("#"))
  .map((line) => line.split(" ") as [string, string]);

describe("porterStem (NLTK's PorterStemmer, as rouge_score stems)", () => {
  it("stems every fixture word as NLTK 3.8 does", () => {
    expect(NLTK.length).toBeGreaterThan(1800);
    const differing = NLTK.filter(([word, stem]) => porterStem(word) !== stem);
    expect(differing).toEqual([]);
  });

  it("keeps NLTK's changes to Porter's original algorithm", () => {
    // Irregular forms, a final y kept after a vowel, -ies/-ied on four letters, -e back after a short stem.
    expect(
      ["dying", "skies", "news", "days", "keys", "replayed", "ties", "died", "using", "happy"].map(
        porterStem,
      ),
    ).toEqual(["die", "sky", "news", "day", "key", "replay", "tie", "die", "use", "happi"]);
  });

  it("follows the paper's examples, and leaves words of two letters and object keys alone", () => {
    expect(
      ["caresses", "ponies", "hopping", "filing", "relational", "generalization", "controll"].map(porterStem),
    ).toEqual(["caress", "poni", "hop", "file", "relat", "gener", "control"]);
    expect(["is", "a", "constructor", "prototype"].map(porterStem)).toEqual([
      "is",
      "a",
      "constructor",
      "prototyp",
    ]);
  });
});
