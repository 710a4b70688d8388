/**
 * `@baton-agents/core/evals`: ADK's evaluations, runtime-neutral (Node and Workers): the eval set format,
 * ADK's metrics, running a set through an app's runner, and the in-memory store `npm run eval` uses.
 */
export { emptyState } from "./evals/empty-state.js";
export { evalSetFileText, parseEvalSetFile } from "./evals/eval-file.js";
export {
  type EvalCase,
  type EvalCaseResult,
  EvalCaseSchema,
  type EvalMetric,
  type EvalMetricResult,
  type EvalSet,
  type EvalSetResult,
  EvalSetSchema,
  EvalStatus,
  type Invocation,
  InvocationSchema,
} from "./evals/eval-set.js";
export { EvalSets } from "./evals/eval-sets.js";
export {
  type EvalDocumentKind,
  type EvalDocumentStore,
  type IdPage,
  InMemoryEvalStore,
} from "./evals/eval-store.js";
export { invocationsOf } from "./evals/invocations.js";
export { DEFAULT_METRICS, evaluateMetric, METRICS, metricsInfo, resolveMetrics } from "./evals/metrics.js";
export { reportLines } from "./evals/report.js";
export { rouge1, rougeTokens } from "./evals/rouge.js";
export { DEFAULT_EVAL_USER_ID, EVAL_SESSION_ID_PREFIX, runEvalCase, runEvalSet } from "./evals/run-eval.js";
