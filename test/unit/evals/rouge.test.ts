import { describe, expect, it } from "vitest";
import { rouge1, rougeTokens } from "../../../src/evals/rouge.js";

describe("rougeTokens (rouge_score's tokenizer with its Porter stemmer)", () => {
  it("lowercases, splits on anything but a-z0-9, and drops empty tokens", () => {
    expect(rougeTokens("Hello, World!  It's 2026.")).toEqual(["hello", "world", "it", "s", "2026"]);
  });

  it("stems only tokens longer than three characters", () => {
    // "runs" and "running" stem to "run"; "ran" and "was" are too short to be stemmed.
    expect(rougeTokens("running runs ran was")).toEqual(["run", "run", "ran", "was"]);
    expect(rougeTokens("lazy dogs jumps")).toEqual(["lazi", "dog", "jump"]);
  });

  it("treats letters outside a-z as separators, as rouge_score's ASCII pattern does", () => {
    expect(rougeTokens("café")).toEqual(["caf"]);
  });
});

describe("rouge1", () => {
  it("matches rouge_score's own README example (use_stemmer=True): P 0.75, R 0.667, F 0.706", () => {
    // target: the quick brown fox jump over the lazi dog (9); prediction: the quick brown dog jump on
    // the log (8); shared: the×2, quick, brown, dog, jump = 6.
    const score = rouge1(
      "The quick brown fox jumps over the lazy dog",
      "The quick brown dog jumps on the log.",
    );
    expect(score.precision).toBeCloseTo(6 / 8, 12);
    expect(score.recall).toBeCloseTo(6 / 9, 12);
    expect(score.fmeasure).toBeCloseTo(0.7058823529411765, 12);
  });

  it("counts a repeated token as often as it occurs in both texts", () => {
    // target run×2 (running, runs); prediction run×1: P = 1/1, R = 1/2, F = 2/3.
    const score = rouge1("running runs", "run");
    expect(score).toEqual({ precision: 1, recall: 0.5, fmeasure: 2 / 3 });
  });

  it("scores 5/6 for one word in six replaced", () => {
    expect(rouge1("The cat sat on the mat", "the cat is on the mat").fmeasure).toBeCloseTo(5 / 6, 12);
  });

  it("ignores case and punctuation", () => {
    expect(rouge1("Hello, World!", "hello world").fmeasure).toBe(1);
  });

  it("scores 0 when either text has no tokens or nothing is shared", () => {
    expect(rouge1("", "anything").fmeasure).toBe(0);
    expect(rouge1("anything", "").fmeasure).toBe(0);
    expect(rouge1("!!!", "...").fmeasure).toBe(0);
    expect(rouge1("sunny", "rainy").fmeasure).toBe(0);
  });
});
