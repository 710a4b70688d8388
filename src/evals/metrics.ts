/**
 * ADK's two reference-free-of-a-judge metrics, under ADK's names and with ADK's scoring:
 * `tool_trajectory_avg_score` (ADK `TrajectoryEvaluator`, match type EXACT) and `response_match_score`
 * (ADK `RougeEvaluator`: ROUGE-1 F-measure of the final response). Each scores every invocation of a case
 * and averages; the case passes a metric when the average reaches the metric's threshold.
 */
import { BatonError } from "../core/errors.js";
import { lookupTable } from "../core/lookup-table.js";
import {
  type EvalMetric,
  type EvalMetricRequest,
  type EvalMetricResult,
  EvalStatus,
  type Invocation,
  toolUsesOf,
} from "./eval-set.js";
import { rouge1 } from "./rouge.js";

/** ADK `MetricInfo`, as `GET …/metrics-info` lists it. */
export interface MetricInfo {
  metricName: string;
  description: string;
  metricValueInfo: {
    interval: { minValue: number; maxValue: number; openAtMin: boolean; openAtMax: boolean };
  };
}

interface MetricDefinition {
  description: string;
  /** ADK's default threshold for the metric (`adk eval` without a config file). */
  defaultThreshold: number;
  /** One invocation's score in [0, 1]. */
  score(actual: Invocation, expected: Invocation): number;
}

/** JSON equality as Python's `==` on parsed JSON: key order does not matter, `1 == 1.0`. */
function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== "object" || typeof b !== "object" || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((item, i) => sameJson(item, b[i]));
  const left = Object.entries(a);
  const right = b as Record<string, unknown>;
  return (
    left.length === Object.keys(right).length &&
    left.every(([key, value]) => Object.hasOwn(right, key) && sameJson(value, right[key]))
  );
}

/** ADK EXACT trajectory match: the same calls in the same order, each with the same name and arguments. */
export function sameTrajectory(actual: Invocation, expected: Invocation): boolean {
  const got = toolUsesOf(actual);
  const want = toolUsesOf(expected);
  return (
    got.length === want.length &&
    got.every((call, i) => call.name === want[i]?.name && sameJson(call.args ?? {}, want[i]?.args ?? {}))
  );
}

/** The final response's text parts joined with newlines, as ADK's `_get_text`. */
export function finalText(invocation: Invocation): string {
  return (invocation.finalResponse?.parts ?? [])
    .flatMap((part) => (part.text === undefined ? [] : [part.text]))
    .join("\n");
}

export const METRICS: Readonly<Record<string, MetricDefinition>> = lookupTable({
  tool_trajectory_avg_score: {
    description:
      "The average of each invocation's tool trajectory match: 1 when the agent called the expected tools, with the expected arguments, in the expected order, else 0.",
    defaultThreshold: 1.0,
    score: (actual, expected) => (sameTrajectory(actual, expected) ? 1 : 0),
  },
  response_match_score: {
    description:
      "The average ROUGE-1 F-measure between each expected and actual final response (lowercased, alphanumeric tokens, Porter-stemmed).",
    defaultThreshold: 0.8,
    score: (actual, expected) => rouge1(finalText(expected), finalText(actual)).fmeasure,
  },
});

/** What `GET …/metrics-info` answers: every metric Baton scores, each in [0, 1]. */
export function metricsInfo(): MetricInfo[] {
  return Object.entries(METRICS).map(([metricName, { description }]) => ({
    metricName,
    description,
    metricValueInfo: { interval: { minValue: 0, maxValue: 1, openAtMin: false, openAtMax: false } },
  }));
}

/** ADK's defaults when a run names no metrics: both, at their default thresholds. */
export const DEFAULT_METRICS: readonly EvalMetric[] = Object.entries(METRICS).map(([metricName, m]) => ({
  metricName,
  threshold: m.defaultThreshold,
}));

/** The metrics of a request with their thresholds; an unknown metric is a 400 naming the known ones. */
export function resolveMetrics(requested: readonly EvalMetricRequest[] | undefined): EvalMetric[] {
  if (!requested || requested.length === 0) return [...DEFAULT_METRICS];
  return requested.map(({ metricName, threshold }) => {
    const metric = METRICS[metricName];
    if (!metric)
      throw new BatonError(
        "invalid_request",
        `Unknown eval metric "${metricName}". Baton scores: ${Object.keys(METRICS).join(", ")}.`,
      );
    return { metricName, threshold: threshold ?? metric.defaultThreshold };
  });
}

const statusOf = (score: number, threshold: number): EvalStatus =>
  score >= threshold ? EvalStatus.PASSED : EvalStatus.FAILED;

export interface MetricOutcome {
  overall: EvalMetricResult;
  /** One per invocation pair, in order. */
  perInvocation: EvalMetricResult[];
}

/**
 * Scores `metric` over the paired invocations (ADK pairs them by position). No invocation to score is
 * `NOT_EVALUATED` with no score, as in ADK.
 */
export function evaluateMetric(
  metric: EvalMetric,
  actual: readonly Invocation[],
  expected: readonly Invocation[],
): MetricOutcome {
  const definition = METRICS[metric.metricName];
  if (!definition) throw new BatonError("invalid_request", `Unknown eval metric "${metric.metricName}".`);
  const pairs = Math.min(actual.length, expected.length);
  const perInvocation: EvalMetricResult[] = [];
  for (let i = 0; i < pairs; i++) {
    // SAFETY: i < both lengths.
    const score = definition.score(actual[i] as Invocation, expected[i] as Invocation);
    perInvocation.push({ ...metric, score, evalStatus: statusOf(score, metric.threshold) });
  }
  if (perInvocation.length === 0)
    return { overall: { ...metric, evalStatus: EvalStatus.NOT_EVALUATED }, perInvocation };
  const score = perInvocation.reduce((sum, r) => sum + (r.score ?? 0), 0) / perInvocation.length;
  return { overall: { ...metric, score, evalStatus: statusOf(score, metric.threshold) }, perInvocation };
}

/** ADK's case verdict: failed if any metric failed, passed if any passed (and none failed), else not evaluated. */
export function caseStatus(results: readonly EvalMetricResult[]): EvalStatus {
  if (results.some((r) => r.evalStatus === EvalStatus.FAILED)) return EvalStatus.FAILED;
  if (results.some((r) => r.evalStatus === EvalStatus.PASSED)) return EvalStatus.PASSED;
  return EvalStatus.NOT_EVALUATED;
}
