import { type EvalMetric, type EvalSetResult, EvalStatus } from "./eval-set.js";
import { METRICS } from "./metrics.js";

const STATUS_WORD: Record<EvalStatus, string> = {
  [EvalStatus.PASSED]: "PASS",
  [EvalStatus.FAILED]: "FAIL",
  [EvalStatus.NOT_EVALUATED]: "NOT EVALUATED",
};

/**
 * An eval run as lines for a terminal: each case's verdict, then each metric's score against its
 * threshold, and for a failed invocation what differed. The last line counts the cases.
 */
export function reportLines(result: EvalSetResult): string[] {
  const lines: string[] = [];
  const width = Math.max(...Object.keys(METRICS).map((name) => name.length));
  for (const c of result.evalCaseResults) {
    // closed key: an `EvalStatus` (the result's schema is an enum of the three).
    lines.push(`${STATUS_WORD[c.finalEvalStatus]}  ${c.evalId}`);
    for (const m of c.overallEvalMetricResults) {
      const score = m.score === undefined ? "  -  " : m.score.toFixed(3);
      // closed key: an `EvalStatus` (the result's schema is an enum of the three).
      const status = STATUS_WORD[m.evalStatus];
      lines.push(`      ${m.metricName.padEnd(width)}  ${score} (threshold ${m.threshold})  ${status}`);
    }
    c.evalMetricResultPerInvocation.forEach((inv, i) => {
      for (const m of inv.evalMetricResults) {
        if (m.evalStatus !== EvalStatus.FAILED) continue;
        lines.push(`      invocation ${i + 1}: ${m.metricName} ${m.score?.toFixed(3) ?? "-"}`);
        if (m.metricName === "tool_trajectory_avg_score") {
          const calls = (x: typeof inv.actualInvocation) =>
            JSON.stringify((x.intermediateData?.toolUses ?? []).map(({ name, args }) => ({ name, args })));
          lines.push(`        expected tools: ${calls(inv.expectedInvocation)}`);
          lines.push(`        actual tools:   ${calls(inv.actualInvocation)}`);
        }
      }
    });
  }
  const passed = result.evalCaseResults.filter((c) => c.finalEvalStatus === EvalStatus.PASSED).length;
  lines.push(`eval set ${result.evalSetId}: ${passed} of ${result.evalCaseResults.length} cases passed`);
  return lines;
}

/**
 * Thresholds from ADK's `test_config.json` (`{"criteria": {"tool_trajectory_avg_score": 1.0, …}}`, a
 * number or `{threshold}` per metric); `null` when the file names none.
 */
export function metricsFromConfig(config: unknown): EvalMetric[] | null {
  if (typeof config !== "object" || config === null || !("criteria" in config)) return null;
  const criteria = config.criteria;
  if (typeof criteria !== "object" || criteria === null) return null;
  return Object.entries(criteria).map(([metricName, value]) => {
    const threshold =
      typeof value === "number"
        ? value
        : typeof value === "object" && value !== null && "threshold" in value
          ? Number(value.threshold)
          : Number.NaN;
    if (!Number.isFinite(threshold))
      throw new Error(`test_config.json: the criterion "${metricName}" has no numeric threshold.`);
    return { metricName, threshold };
  });
}
