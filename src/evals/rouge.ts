import { porterStem } from "./porter.js";

/**
 * Tokens as Google's `rouge_score` makes them (ADK's `response_match_score` calls
 * `RougeScorer(["rouge1"], use_stemmer=True)`): lowercased, every run of characters other than `a-z0-9`
 * a separator, then each token longer than three characters stemmed with NLTK's Porter stemmer
 * (`porter.ts`), as `rouge_score` stems.
 */
export function rougeTokens(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((token) => token !== "")
    .map((token) => (token.length > 3 ? porterStem(token) : token));
}

export interface RougeScore {
  precision: number;
  recall: number;
  fmeasure: number;
}

const counts = (tokens: readonly string[]): Map<string, number> => {
  const out = new Map<string, number>();
  for (const token of tokens) out.set(token, (out.get(token) ?? 0) + 1);
  return out;
};

/**
 * ROUGE-1 of `prediction` against `target`: the unigrams they share (each counted as often as it occurs
 * in both), over the prediction's (precision) and the target's (recall), and their harmonic mean. Either
 * text without tokens scores 0, as in `rouge_score`.
 * @example
 * rouge1("the cat sat", "the cat sat down").fmeasure; // 2·1·0.75/1.75 ≈ 0.857
 */
export function rouge1(target: string, prediction: string): RougeScore {
  const expected = counts(rougeTokens(target));
  const actual = counts(rougeTokens(prediction));
  let overlap = 0;
  for (const [token, n] of actual) overlap += Math.min(n, expected.get(token) ?? 0);
  const total = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
  const precision = overlap / Math.max(total(actual), 1);
  const recall = overlap / Math.max(total(expected), 1);
  const fmeasure = precision + recall > 0 ? (2 * precision * recall) / (precision + recall) : 0;
  return { precision, recall, fmeasure };
}
