import { describe, expect, it } from "vitest";
// Loaded here so the entry's module graph is imported with the file, not inside the first test's timeout.
import "../../../src/worker.js";
import { callEntry, expectJson, freshIds, runBody, sessionsOf } from "../support/http.js";

/*
 * ADK's eval routes on the demo Worker entry (its eval sets go to the ARTIFACTS bucket, under `evals/`), in
 * the shapes ADK's server answers and the dev UI reads: camelCase bodies, EvalStatus as its number, legacy
 * lists bare and newer ones wrapped.
 */

interface Invocation {
  userContent: { parts: { text?: string }[] };
  finalResponse?: { parts: { text?: string }[] };
  intermediateData: { toolUses: { name: string; args: Record<string, unknown> }[] };
}
interface EvalCase {
  evalId: string;
  conversation: Invocation[];
  sessionInput: { appName: string; userId: string; state: Record<string, unknown> };
  creationTimestamp: number;
}
interface MetricResult {
  metricName: string;
  threshold: number;
  score?: number;
  evalStatus: number;
}
interface CaseResult {
  evalSetFile: string;
  evalSetId: string;
  evalId: string;
  finalEvalStatus: number;
  evalMetricResults: unknown[];
  overallEvalMetricResults: MetricResult[];
  evalMetricResultPerInvocation: {
    actualInvocation: Invocation;
    expectedInvocation: Invocation;
    evalMetricResults: MetricResult[];
  }[];
  sessionId: string;
  userId: string;
}

const METRICS = [
  { metricName: "tool_trajectory_avg_score", threshold: 1 },
  { metricName: "response_match_score", threshold: 0.7 },
];

/** A demo session with one weather turn, and a fresh eval set id, for one test. */
async function weatherSession(prefix = "/dev") {
  const call = callEntry();
  const { user, session, id } = freshIds("evals");
  await sessionsOf(call, "demo", user).create({ sessionId: session });
  const question = runBody("demo", user, session, "What is the weather in Lisbon?");
  await expectJson(call("/run", { method: "POST", json: question }), 200);
  const base = `${prefix}/apps/demo`;
  return { call, user, session, setId: `set_${id}`, base };
}

describe("ADK's eval routes, as the dev UI calls them (/dev/apps/:app/…)", () => {
  it("creates a set, adds the current session as a case, runs it to a pass and keeps the result", async () => {
    const { call, user, session, setId, base } = await weatherSession();
    const created = await expectJson<Record<string, unknown>>(
      call(`${base}/eval-sets`, {
        method: "POST",
        // What the dev UI sends (it adds execution modes ADK's server ignores).
        json: {
          eval_set: {
            eval_set_id: setId,
            model_execution_mode: "live",
            tool_execution_mode: "live",
            eval_cases: [],
          },
        },
      }),
      200,
    );
    expect(created).toEqual({ evalSetId: setId, evalCases: [], creationTimestamp: expect.any(Number) });
    expect(await expectJson<string[]>(call(`${base}/eval_sets`), 200)).toContain(setId);
    expect((await expectJson<{ evalSetIds: string[] }>(call(`${base}/eval-sets`), 200)).evalSetIds).toContain(
      setId,
    );

    const added = call(`${base}/eval_sets/${setId}/add_session`, {
      method: "POST",
      json: { evalId: "lisbon", sessionId: session, userId: user },
    });
    expect(await expectJson(added, 200)).toBeNull();
    expect(await expectJson(call(`${base}/eval_sets/${setId}/evals`), 200)).toEqual(["lisbon"]);
    const stored = await expectJson<EvalCase>(call(`${base}/eval_sets/${setId}/evals/lisbon`), 200);
    expect(stored).toMatchObject({
      evalId: "lisbon",
      sessionInput: { appName: "demo", userId: user, state: {} },
      creationTimestamp: expect.any(Number),
    });
    expect(stored.conversation).toHaveLength(1);
    expect(stored.conversation[0]?.userContent.parts[0]?.text).toBe("What is the weather in Lisbon?");
    expect(
      stored.conversation[0]?.intermediateData.toolUses.map(({ name, args }) => ({ name, args })),
    ).toEqual([
      { name: "transfer_to_agent", args: { agent_name: "weather" } },
      { name: "get_forecast", args: { city: "Lisbon" } },
    ]);
    expect(stored.conversation[0]?.finalResponse?.parts[0]?.text).toMatch(
      /^Here is what I found: get_forecast/,
    );

    const info = await expectJson<{ metricsInfo: { metricName: string }[] }>(
      call(`${base}/metrics-info`),
      200,
    );
    expect(info.metricsInfo.map((m) => m.metricName)).toEqual([
      "tool_trajectory_avg_score",
      "response_match_score",
    ]);

    const runs = await expectJson<CaseResult[]>(
      call(`${base}/eval_sets/${setId}/run_eval`, {
        method: "POST",
        json: { evalIds: ["lisbon"], evalMetrics: METRICS },
      }),
      200,
    );
    expect(runs).toHaveLength(1);
    const [run] = runs;
    expect(run).toMatchObject({
      evalSetFile: setId,
      evalSetId: setId,
      evalId: "lisbon",
      finalEvalStatus: 1,
      evalMetricResults: [],
      overallEvalMetricResults: [
        { metricName: "tool_trajectory_avg_score", threshold: 1, score: 1, evalStatus: 1 },
        { metricName: "response_match_score", threshold: 0.7, score: 1, evalStatus: 1 },
      ],
      userId: `baton:eval:${user}`,
    });
    expect(run?.sessionId).toMatch(/^___eval___session___[0-9a-f-]{36}$/);
    expect(
      run?.evalMetricResultPerInvocation[0]?.actualInvocation.intermediateData.toolUses.map((t) => t.name),
    ).toEqual(["transfer_to_agent", "get_forecast"]);
    // The eval ran in a session of Baton's reserved eval user for the case's user (decision 048), which
    // the dev UI opens (from the result's userId) to show the run; the case's real user has no such session.
    const evalSession = await sessionsOf(call, "demo", `baton:eval:${user}`).get(run?.sessionId ?? "");
    const asCaseUser = await call(`/apps/demo/users/${user}/sessions/${run?.sessionId ?? ""}`);
    expect(asCaseUser.status).toBe(404);
    await asCaseUser.text();
    expect(evalSession.events.filter((e) => e.author === "user")).toHaveLength(1);
    // …and which the session list leaves out, as ADK's server does.
    const listed = await expectJson<{ id: string }[]>(call(`/apps/demo/users/${user}/sessions`), 200);
    expect(listed.map((s) => s.id)).toEqual([session]);

    const results = await expectJson<string[]>(call(`${base}/eval_results`), 200);
    const mine = results.filter((id) => id.startsWith(`demo_${setId}_`));
    expect(mine).toHaveLength(1);
    const wrapped = await expectJson<{ evalResultIds: string[] }>(call(`${base}/eval-results`), 200);
    expect(wrapped.evalResultIds).toContain(mine[0]);
    const result = await expectJson<Record<string, unknown>>(
      call(`${base}/eval_results/${encodeURIComponent(mine[0] ?? "")}`),
      200,
    );
    expect(result).toMatchObject({
      evalSetResultId: mine[0],
      evalSetResultName: mine[0],
      evalSetId: setId,
      creationTimestamp: expect.any(Number),
      evalCaseResults: [{ evalId: "lisbon", finalEvalStatus: 1, sessionId: run?.sessionId }],
    });
  });

  it("fails a case whose expected trajectory was edited, with the failing invocation's metrics", async () => {
    const { call, user, session, setId, base } = await weatherSession();
    await expectJson(call(`${base}/eval_sets/${setId}`, { method: "POST" }), 200);
    await expectJson(
      call(`${base}/eval_sets/${setId}/add_session`, {
        method: "POST",
        json: { evalId: "c", sessionId: session, userId: user },
      }),
      200,
    );
    const stored = await expectJson<EvalCase>(call(`${base}/eval_sets/${setId}/evals/c`), 200);
    const edited = structuredClone(stored);
    const forecast = edited.conversation[0]?.intermediateData.toolUses[1];
    if (!forecast) throw new Error("the stored case lost its get_forecast call");
    forecast.args = { city: "Porto" };
    // What the dev UI sends when a case is edited.
    const update = {
      evalId: "c",
      conversation: edited.conversation,
      sessionInput: edited.sessionInput,
      creationTimestamp: edited.creationTimestamp,
    };
    expect(
      await expectJson(call(`${base}/eval_sets/${setId}/evals/c`, { method: "PUT", json: update }), 200),
    ).toBeNull();
    const [run] = await expectJson<CaseResult[]>(
      call(`${base}/eval_sets/${setId}/run_eval`, {
        method: "POST",
        json: { evalIds: [], evalMetrics: METRICS },
      }),
      200,
    );
    expect(run?.finalEvalStatus).toBe(2);
    expect(run?.overallEvalMetricResults[0]).toEqual({
      metricName: "tool_trajectory_avg_score",
      threshold: 1,
      score: 0,
      evalStatus: 2,
    });
    expect(run?.evalMetricResultPerInvocation[0]?.evalMetricResults[0]?.evalStatus).toBe(2);
    expect(
      run?.evalMetricResultPerInvocation[0]?.expectedInvocation.intermediateData.toolUses[1]?.args,
    ).toEqual({ city: "Porto" });
  });

  it("refuses what ADK refuses, with coded errors", async () => {
    const { call, user, session, setId, base } = await weatherSession();
    const refusal = (path: string, init: Parameters<typeof call>[1], status: number) =>
      expectJson<{ code: string; detail: string }>(call(`${base}${path}`, init), status);
    expect(await refusal(`/eval_sets/${setId}`, {}, 404)).toMatchObject({ code: "not_found" });
    await expectJson(call(`${base}/eval_sets/${setId}`, { method: "POST" }), 200);
    expect(await refusal(`/eval_sets/${setId}`, { method: "POST" }, 400)).toMatchObject({
      detail: expect.stringContaining("already exists"),
    });
    expect(
      await refusal(
        `/eval_sets/${setId}/add_session`,
        { method: "POST", json: { evalId: "x", sessionId: "nope", userId: user } },
        404,
      ),
    ).toMatchObject({ code: "session_not_found" });
    expect(
      await refusal(
        `/eval_sets/${setId}/add_session`,
        { method: "POST", json: { evalId: "has space", sessionId: session, userId: user } },
        400,
      ),
    ).toMatchObject({ code: "invalid_request" });
    await expectJson(
      call(`${base}/eval_sets/${setId}/add_session`, {
        method: "POST",
        json: { evalId: "x", sessionId: session, userId: user },
      }),
      200,
    );
    expect(
      await refusal(
        `/eval_sets/${setId}/run_eval`,
        { method: "POST", json: { evalMetrics: [{ metricName: "safety_v1", threshold: 1 }] } },
        400,
      ),
    ).toMatchObject({ detail: expect.stringContaining('Unknown eval metric "safety_v1"') });
    expect(
      await refusal(
        `/eval_sets/${setId}/run_eval`,
        { method: "POST", json: { evalIds: ["nope"], evalMetrics: METRICS } },
        404,
      ),
    ).toMatchObject({ detail: expect.stringContaining('has no case "nope"') });
    expect(
      await refusal(
        `/eval_sets/${setId}/evals/x`,
        { method: "PUT", json: { evalId: "y", conversation: [] } },
        400,
      ),
    ).toMatchObject({ detail: "Eval id in EvalCase should match the eval id in the API route." });
    expect(
      await refusal(`/eval_sets/${setId}/evals/y`, { method: "PUT", json: { conversation: [] } }, 404),
    ).toMatchObject({
      code: "not_found",
    });
    expect(await refusal(`/eval_results/nope`, {}, 404)).toMatchObject({ code: "not_found" });
    expect(await refusal(`/eval_sets/${setId}/evals/x`, { method: "DELETE" }, 200)).toBeNull();
    expect(await refusal(`/eval_sets/${setId}/evals/x`, {}, 404)).toMatchObject({ code: "not_found" });
    expect(await refusal(`/eval_sets/${setId}`, { method: "DELETE" }, 200)).toBeNull();
    expect(await expectJson<string[]>(call(`${base}/eval_sets`), 200)).not.toContain(setId);
  });
});

describe("ADK's newer eval-sets spellings, at /apps/:app/… as ADK's server serves them", () => {
  it("add-session, eval-cases and run answer in the same shapes, runs wrapped in runEvalResults", async () => {
    const { call, user, session, setId, base } = await weatherSession("");
    await expectJson(
      call(`${base}/eval-sets`, { method: "POST", json: { evalSet: { evalSetId: setId, evalCases: [] } } }),
      200,
    );
    const addSession = { eval_id: "c", session_id: session, user_id: user };
    await expectJson(
      call(`${base}/eval-sets/${setId}/add-session`, { method: "POST", json: addSession }),
      200,
    );
    const stored = await expectJson<EvalCase>(call(`${base}/eval-sets/${setId}/eval-cases/c`), 200);
    expect(stored.evalId).toBe("c");
    const { runEvalResults } = await expectJson<{ runEvalResults: CaseResult[] }>(
      call(`${base}/eval-sets/${setId}/run`, {
        method: "POST",
        json: { eval_case_ids: ["c"], eval_metrics: METRICS },
      }),
      200,
    );
    expect(runEvalResults.map((r) => [r.evalId, r.finalEvalStatus])).toEqual([["c", 1]]);
    const { evalResultIds } = await expectJson<{ evalResultIds: string[] }>(
      call(`${base}/eval-results`),
      200,
    );
    const id = evalResultIds.find((r) => r.startsWith(`demo_${setId}_`)) ?? "";
    expect(await expectJson(call(`${base}/eval-results/${encodeURIComponent(id)}`), 200)).toMatchObject({
      evalSetId: setId,
    });
    await expectJson(call(`${base}/eval-sets/${setId}/eval-cases/c`, { method: "DELETE" }), 200);
    expect(await expectJson(call(`${base}/eval-sets/${setId}`), 200)).toMatchObject({
      evalSetId: setId,
      evalCases: [],
    });
  });
});
