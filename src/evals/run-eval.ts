import { BatonError } from "../core/errors.js";
import { toWireSeconds } from "../core/ids.js";
import type { Clock, IdSource } from "../core/ports.js";
import { reservedUserKey } from "../core/reserved-users.js";
import type { SessionStore } from "../core/session-store.js";
import type { Runner } from "../runner/runner.js";
import { DEFAULT_EVAL_USER_ID, EVAL_SESSION_ID_PREFIX } from "./eval-session.js";
import {
  type EvalCase,
  type EvalCaseResult,
  type EvalMetric,
  type EvalMetricResult,
  type EvalSet,
  type EvalSetResult,
  EvalStatus,
  type Invocation,
} from "./eval-set.js";
import { invocationsOf } from "./invocations.js";
import { caseStatus, evaluateMetric } from "./metrics.js";

export { DEFAULT_EVAL_USER_ID, EVAL_SESSION_ID_PREFIX } from "./eval-session.js";

export interface EvalRunDeps {
  /** The app's runner (its `app` is the one evaluated) over `sessionStore`. */
  runner: Pick<Runner, "app" | "run">;
  sessionStore: SessionStore;
  ids: IdSource;
  clock: Clock;
}

/** What a turn that yields nothing the scorer can read looks like: the user's message and nothing else. */
const emptyActual = (expected: Invocation): Invocation => ({
  invocationId: "",
  userContent: expected.userContent,
  creationTimestamp: 0,
  intermediateData: { toolUses: [], intermediateResponses: [] },
});

/**
 * Runs one case as ADK's `LocalEvalService` does: a fresh session (`___eval___session___<uuid>`, the case's
 * user as Baton's reserved `baton:eval:<user>` (decision 048), and its initial state), each expected invocation's user content sent as one turn through the app's
 * runner, the session's events cut into actual invocations, and each metric scored over the pairs.
 */
export async function runEvalCase(
  deps: EvalRunDeps,
  evalSetId: string,
  evalCase: EvalCase,
  metrics: readonly EvalMetric[],
): Promise<EvalCaseResult> {
  const appName = deps.runner.app.name;
  // Eval sessions (and their `user:` state) belong to Baton's reserved eval user, never to a real one.
  const caseUser = evalCase.sessionInput?.userId ?? DEFAULT_EVAL_USER_ID;
  const userId = reservedUserKey("eval", caseUser, `Eval case "${evalCase.evalId}"`);
  const sessionId = `${EVAL_SESSION_ID_PREFIX}${deps.ids.uuid()}`;
  await deps.sessionStore.createSession({
    appName,
    userId,
    sessionId,
    state: evalCase.sessionInput?.state ?? {},
  });
  for (const expected of evalCase.conversation) {
    for await (const _event of deps.runner.run({ userId, sessionId, newMessage: expected.userContent })) {
      // Stored as they come; they are read back from the session below.
    }
  }
  const session = await deps.sessionStore.getSession({ appName, userId, sessionId });
  if (!session) throw new BatonError("internal", `The eval session ${sessionId} disappeared during the run.`);
  const actual = invocationsOf(session.events);
  const expected = evalCase.conversation;
  const outcomes = metrics.map((metric) => evaluateMetric(metric, actual, expected));
  const overall = outcomes.map((o) => o.overall);
  return {
    evalSetFile: evalSetId,
    evalSetId,
    evalId: evalCase.evalId,
    finalEvalStatus: caseStatus(overall),
    overallEvalMetricResults: overall,
    evalMetricResultPerInvocation: expected.map((want, i) => ({
      actualInvocation: actual[i] ?? emptyActual(want),
      expectedInvocation: want,
      evalMetricResults: outcomes.map(
        (o): EvalMetricResult =>
          o.perInvocation[i] ?? { ...metricOf(o.overall), evalStatus: EvalStatus.NOT_EVALUATED },
      ),
    })),
    sessionId,
    userId,
  };
}

const metricOf = ({ metricName, threshold }: EvalMetricResult): EvalMetric => ({ metricName, threshold });

/** The cases of `evalSet` to run: those named (all when none is), or a 404 naming the ids it lacks. */
export function selectCases(evalSet: EvalSet, evalIds: readonly string[]): EvalCase[] {
  if (evalIds.length === 0) return evalSet.evalCases;
  const known = new Set(evalSet.evalCases.map((c) => c.evalId));
  const missing = evalIds.filter((id) => !known.has(id));
  if (missing.length > 0)
    throw new BatonError(
      "not_found",
      `Eval set "${evalSet.evalSetId}" has no case ${missing.map((id) => `"${id}"`).join(", ")}.`,
    );
  const wanted = new Set(evalIds);
  return evalSet.evalCases.filter((c) => wanted.has(c.evalId));
}

/**
 * Runs the selected cases one after another and gathers them as ADK's `EvalSetResult`, its id
 * `<app>_<eval set id>_<seconds>` as ADK names it.
 */
export async function runEvalSet(
  deps: EvalRunDeps,
  evalSet: EvalSet,
  evalIds: readonly string[],
  metrics: readonly EvalMetric[],
): Promise<EvalSetResult> {
  const cases = selectCases(evalSet, evalIds);
  const evalCaseResults: EvalCaseResult[] = [];
  for (const evalCase of cases)
    evalCaseResults.push(await runEvalCase(deps, evalSet.evalSetId, evalCase, metrics));
  const creationTimestamp = toWireSeconds(deps.clock.now());
  const evalSetResultId = `${deps.runner.app.name}_${evalSet.evalSetId}_${creationTimestamp}`;
  return {
    evalSetResultId,
    evalSetResultName: evalSetResultId.replaceAll("/", "_"),
    evalSetId: evalSet.evalSetId,
    evalCaseResults,
    creationTimestamp,
  };
}
