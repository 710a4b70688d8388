import { describe, expect, it } from "vitest";
import type { FunctionCall } from "../../../src/core/content.js";
import { EvalStatus, type Invocation } from "../../../src/evals/eval-set.js";
import {
  caseStatus,
  evaluateMetric,
  metricsInfo,
  resolveMetrics,
  sameTrajectory,
} from "../../../src/evals/metrics.js";

const invocation = (toolUses: FunctionCall[], answer = "done"): Invocation => ({
  invocationId: "",
  userContent: { role: "user", parts: [{ text: "q" }] },
  finalResponse: { parts: [{ text: answer }] },
  intermediateData: { toolUses, intermediateResponses: [] },
  creationTimestamp: 0,
});
const forecast = (city: string, id?: string): FunctionCall => ({
  ...(id ? { id } : {}),
  name: "get_forecast",
  args: { city },
});
const transfer: FunctionCall = { name: "transfer_to_agent", args: { agent_name: "weather" } };
const trajectory = { metricName: "tool_trajectory_avg_score", threshold: 1 };

describe("tool_trajectory_avg_score (ADK TrajectoryEvaluator, EXACT)", () => {
  it("matches the same calls in the same order, whatever their ids", () => {
    const expected = invocation([transfer, forecast("Lisbon", "adk-1")]);
    expect(sameTrajectory(invocation([transfer, forecast("Lisbon", "adk-2")]), expected)).toBe(true);
  });

  it("compares arguments as JSON values: key order does not matter, values do", () => {
    const two = (args: Record<string, unknown>) => invocation([{ name: "f", args }]);
    expect(sameTrajectory(two({ a: 1, b: [1, { c: 2 }] }), two({ b: [1, { c: 2 }], a: 1 }))).toBe(true);
    expect(sameTrajectory(two({ a: 1 }), two({ a: 2 }))).toBe(false);
    expect(sameTrajectory(two({ a: 1 }), two({ a: 1, b: 2 }))).toBe(false);
    expect(sameTrajectory(two({ a: [1, 2] }), two({ a: [2, 1] }))).toBe(false);
  });

  it("fails a different city, a missing call, an extra call or another order", () => {
    const expected = invocation([transfer, forecast("Lisbon")]);
    expect(sameTrajectory(invocation([transfer, forecast("Porto")]), expected)).toBe(false);
    expect(sameTrajectory(invocation([transfer]), expected)).toBe(false);
    expect(sameTrajectory(invocation([transfer, forecast("Lisbon"), forecast("Lisbon")]), expected)).toBe(
      false,
    );
    expect(sameTrajectory(invocation([forecast("Lisbon"), transfer]), expected)).toBe(false);
  });

  it("reads tool uses from ADK's newer invocation_events form too", () => {
    const events: Invocation = {
      ...invocation([]),
      intermediateData: {
        toolUses: [],
        intermediateResponses: [],
        invocationEvents: [{ author: "weather", content: { parts: [{ functionCall: forecast("Lisbon") }] } }],
      },
    };
    expect(sameTrajectory(events, invocation([forecast("Lisbon")]))).toBe(true);
  });

  it("averages over invocations: one of two matching scores 0.5, under the default threshold 1.0", () => {
    const expected = [invocation([forecast("Lisbon")]), invocation([forecast("Porto")])];
    const actual = [invocation([forecast("Lisbon")]), invocation([forecast("Faro")])];
    const outcome = evaluateMetric(trajectory, actual, expected);
    expect(outcome.perInvocation.map((r) => [r.score, r.evalStatus])).toEqual([
      [1, EvalStatus.PASSED],
      [0, EvalStatus.FAILED],
    ]);
    expect(outcome.overall).toEqual({ ...trajectory, score: 0.5, evalStatus: EvalStatus.FAILED });
    const lenient = evaluateMetric({ ...trajectory, threshold: 0.5 }, actual, expected);
    expect(lenient.overall.evalStatus).toBe(EvalStatus.PASSED);
  });

  it("is NOT_EVALUATED, with no score, when there is no invocation to score", () => {
    expect(evaluateMetric(trajectory, [], []).overall).toEqual({
      ...trajectory,
      evalStatus: EvalStatus.NOT_EVALUATED,
    });
  });
});

describe("response_match_score (ADK RougeEvaluator)", () => {
  const metric = { metricName: "response_match_score", threshold: 0.8 };

  it("scores the final responses' ROUGE-1 F-measure, averaged over invocations", () => {
    const expected = [invocation([], "The cat sat on the mat"), invocation([], "It is sunny in Lisbon")];
    const actual = [invocation([], "the cat is on the mat"), invocation([], "it is sunny in lisbon!")];
    const outcome = evaluateMetric(metric, actual, expected);
    expect(outcome.perInvocation.map((r) => r.score)).toEqual([5 / 6, 1]);
    expect(outcome.overall.score).toBeCloseTo((5 / 6 + 1) / 2, 12);
    expect(outcome.overall.evalStatus).toBe(EvalStatus.PASSED);
  });

  it("joins a response's text parts with newlines and scores a missing response as empty", () => {
    const split: Invocation = {
      ...invocation([]),
      finalResponse: { parts: [{ text: "sunny" }, { text: "warm" }] },
    };
    const { finalResponse: _none, ...none } = invocation([]);
    expect(evaluateMetric(metric, [split], [invocation([], "sunny warm")]).overall.score).toBe(1);
    expect(evaluateMetric(metric, [none], [invocation([], "sunny warm")]).overall).toMatchObject({
      score: 0,
      evalStatus: EvalStatus.FAILED,
    });
  });
});

describe("metric requests and the case verdict", () => {
  it("fills ADK's default thresholds (1.0 and 0.8) and runs both metrics when none is named", () => {
    expect(resolveMetrics([])).toEqual([
      { metricName: "tool_trajectory_avg_score", threshold: 1 },
      { metricName: "response_match_score", threshold: 0.8 },
    ]);
    expect(resolveMetrics([{ metricName: "response_match_score" }])).toEqual([
      { metricName: "response_match_score", threshold: 0.8 },
    ]);
  });

  it("refuses a metric Baton does not score, naming the ones it does", () => {
    expect(() => resolveMetrics([{ metricName: "safety_v1", threshold: 1 }])).toThrow(
      /Unknown eval metric "safety_v1"\. Baton scores: tool_trajectory_avg_score, response_match_score/,
    );
  });

  it("fails a case when any metric fails, passes it when the rest pass", () => {
    const r = (evalStatus: EvalStatus) => ({ metricName: "m", threshold: 1, evalStatus });
    expect(caseStatus([r(EvalStatus.PASSED), r(EvalStatus.FAILED)])).toBe(EvalStatus.FAILED);
    expect(caseStatus([r(EvalStatus.PASSED), r(EvalStatus.NOT_EVALUATED)])).toBe(EvalStatus.PASSED);
    expect(caseStatus([r(EvalStatus.NOT_EVALUATED)])).toBe(EvalStatus.NOT_EVALUATED);
  });

  it("lists both metrics in ADK's MetricInfo shape, each in [0, 1]", () => {
    expect(metricsInfo().map((m) => [m.metricName, m.metricValueInfo.interval])).toEqual([
      ["tool_trajectory_avg_score", { minValue: 0, maxValue: 1, openAtMin: false, openAtMax: false }],
      ["response_match_score", { minValue: 0, maxValue: 1, openAtMin: false, openAtMax: false }],
    ]);
  });
});
