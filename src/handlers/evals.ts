import { type Context, Hono } from "hono";
import * as z from "zod";
import { wireObject } from "../core/content.js";
import { BatonError } from "../core/errors.js";
import { SessionIdSchema, UserIdSchema } from "../core/limits.js";
import { EVENT_PAGE_LIMITS } from "../core/session-pages.js";
import { type EvalStoreEnv, evalStoreOf } from "../evals/cloudflare-eval-stores.js";
import { emptyState } from "../evals/empty-state.js";
import {
  type EvalCaseResult,
  EvalCaseSchema,
  EvalIdSchema,
  EvalMetricSchema,
  EvalSetSchema,
} from "../evals/eval-set.js";
import { EvalSets } from "../evals/eval-sets.js";
import { invocationsOf } from "../evals/invocations.js";
import { metricsInfo, resolveMetrics } from "../evals/metrics.js";
import { runEvalSet } from "../evals/run-eval.js";
import { Runner } from "../runner/runner.js";
import { findApp } from "./app-lookup.js";
import { assertService, callerOf } from "./caller.js";
import { idPage } from "./page-query.js";
import { readBody } from "./read-body.js";
import type { HonoEnv } from "./types.js";

/** ADK `CreateEvalSetRequest` (`POST …/eval-sets`); the dev UI also sends execution modes, which are dropped. */
const CreateEvalSetBody = wireObject({
  evalSet: EvalSetSchema.transform(({ evalSetId, name, description }) => ({ evalSetId, name, description })),
});
/** ADK `AddSessionToEvalSetRequest`. */
const AddSessionBody = wireObject({
  evalId: EvalIdSchema,
  sessionId: SessionIdSchema,
  userId: UserIdSchema,
});
/** ADK `RunEvalRequest`: `eval_case_ids` (or the older `eval_ids`; none = every case) and the metrics. */
const RunEvalBody = wireObject({
  evalIds: z.array(z.string()).default([]),
  evalCaseIds: z.array(z.string()).default([]),
  evalMetrics: z.array(EvalMetricSchema).optional(),
});
/** An `EvalCase` whose id may be left out (the route names it): read as an object, checked in `updateCase`. */
const UpdateCaseBody = z.record(z.string(), z.unknown());

type EvalsContext = Context<HonoEnv>;

/** The eval sets of the route's app, after the guard: eval data is the developer's, so service tokens only. */
function evalSetsOf(c: EvalsContext) {
  assertService(callerOf(c), "Evaluations (the dev UI's Evals tab and ADK's eval routes)");
  const app = findApp(c.var.deps.apps, c.req.param("app") ?? "");
  // SAFETY: the Worker's env carries its bindings; `evalStoreOf` checks the ones it uses are there.
  const store = c.var.deps.evalStore ?? evalStoreOf(c.env as EvalStoreEnv);
  return { app, sets: new EvalSets(store, c.var.deps.services.clock) };
}

/** A path segment that names an eval set, case or result: at most 256 characters, no whitespace or slash. */
function pathId(c: EvalsContext, name: string): string {
  const value = c.req.param(name) ?? "";
  if (value === "" || value.length > 256 || /[\s/\\]/.test(value))
    throw new BatonError("invalid_request", `Invalid eval ${name} id in the path: "${value.slice(0, 64)}".`);
  return value;
}

/** ADK's `RunEvalResult`: a case result with the deprecated `evalMetricResults` ADK still sends (empty). */
const runEvalResult = (result: EvalCaseResult) => ({ ...result, evalMetricResults: [] });

async function runEval(c: EvalsContext) {
  const { app, sets } = evalSetsOf(c);
  const evalSet = await sets.getSet(app.name, pathId(c, "set"));
  const body = await readBody(c, RunEvalBody);
  const metrics = resolveMetrics(body.evalMetrics);
  const { sessionStore, services } = c.var.deps;
  const runner = new Runner({ app, sessionStore, services });
  const ids = body.evalCaseIds.length > 0 ? body.evalCaseIds : body.evalIds;
  const result = await runEvalSet({ runner, sessionStore, ...services }, evalSet, ids, metrics);
  await sets.putResult(app.name, result);
  return result.evalCaseResults.map(runEvalResult);
}

/** ADK `add_session_to_eval_set`: the session's conversation as a new case, its user and app kept. */
async function addSession(c: EvalsContext) {
  const { app, sets } = evalSetsOf(c);
  const setId = pathId(c, "set");
  const { evalId, sessionId, userId } = await readBody(c, AddSessionBody);
  const max = EVENT_PAGE_LIMITS.maxPerRead;
  const key = { appName: app.name, userId, sessionId };
  const session = await c.var.deps.sessionStore.getSession(key, { numRecentEvents: max + 1 });
  if (!session) throw new BatonError("session_not_found", `Session not found: ${sessionId}`);
  if (session.events.length > max)
    throw new BatonError("invalid_request", `An eval case is made of a session of at most ${max} events.`);
  await sets.putCase(app.name, setId, {
    evalId,
    conversation: invocationsOf(session.events),
    sessionInput: { appName: app.name, userId, state: emptyState(app.rootAgent) },
    creationTimestamp: c.var.deps.services.clock.now() / 1000,
  });
  return c.json(null);
}

async function updateCase(c: EvalsContext) {
  const { app, sets } = evalSetsOf(c);
  const evalId = pathId(c, "case");
  const { eval_id: snakeId, evalId: camelId, ...rest } = await readBody(c, UpdateCaseBody);
  const named = camelId ?? snakeId;
  // ADK: an id in the body must be the route's; none (or an empty one) takes the route's.
  if (named !== undefined && named !== "" && named !== evalId)
    throw new BatonError("invalid_request", "Eval id in EvalCase should match the eval id in the API route.");
  const parsed = EvalCaseSchema.safeParse({ ...rest, evalId });
  if (!parsed.success) {
    const faults = parsed.error.issues.map((i) => `${i.path.join(".") || "(body)"}: ${i.message}`);
    throw new BatonError("invalid_request", `Invalid request body: ${faults.join("; ")}`);
  }
  await sets.updateCase(app.name, pathId(c, "set"), parsed.data);
  return c.json(null);
}

/**
 * ADK's evaluation routes, as its dev UI calls them (under `/dev`) and as ADK's server serves them:
 * the legacy `eval_sets`/`eval_results` spellings and the newer `eval-sets`/`eval-results` ones, whose
 * list answers are wrapped (`{evalSetIds}`, `{evalResultIds}`, `{runEvalResults}`). Decision 034.
 */
export const evals = new Hono<HonoEnv>();

for (const prefix of ["", "/dev"]) {
  const at = (path: string) => `${prefix}/apps/:app${path}`;
  evals
    .get(at("/metrics-info"), (c) => {
      evalSetsOf(c);
      return c.json({ metricsInfo: metricsInfo() });
    })
    .post(at("/eval-sets"), async (c) => {
      const { app, sets } = evalSetsOf(c);
      const { evalSet } = await readBody(c, CreateEvalSetBody);
      return c.json(await sets.createSet(app.name, evalSet));
    })
    .post(at("/eval_sets/:set"), async (c) => {
      const { app, sets } = evalSetsOf(c);
      await sets.createSet(app.name, { evalSetId: pathId(c, "set") });
      return c.json(null);
    })
    // Ids a page at a time (decision 046): the next page's token in headers, the body as ADK answers it.
    .get(at("/eval_sets"), async (c) => {
      const { app, sets } = evalSetsOf(c);
      return c.json(await idPage(c, (page) => sets.listSets(app.name, page)));
    })
    .get(at("/eval-sets"), async (c) => {
      const { app, sets } = evalSetsOf(c);
      return c.json({ evalSetIds: await idPage(c, (page) => sets.listSets(app.name, page)) });
    })
    .get(at("/eval_results"), async (c) => {
      const { app, sets } = evalSetsOf(c);
      return c.json(await idPage(c, (page) => sets.listResults(app.name, page)));
    })
    .get(at("/eval-results"), async (c) => {
      const { app, sets } = evalSetsOf(c);
      return c.json({ evalResultIds: await idPage(c, (page) => sets.listResults(app.name, page)) });
    })
    .post(at("/eval_sets/:set/run_eval"), async (c) => c.json(await runEval(c)))
    .post(at("/eval-sets/:set/run"), async (c) => c.json({ runEvalResults: await runEval(c) }))
    .post(at("/eval_sets/:set/add_session"), addSession)
    .post(at("/eval-sets/:set/add-session"), addSession)
    .get(at("/eval_sets/:set/evals"), async (c) => {
      const { app, sets } = evalSetsOf(c);
      const evalSet = await sets.getSet(app.name, pathId(c, "set"));
      return c.json(evalSet.evalCases.map((e) => e.evalId).sort());
    });
  for (const [sets, results, cases] of [
    ["eval_sets", "eval_results", "evals"],
    ["eval-sets", "eval-results", "eval-cases"],
  ] as const) {
    evals
      .get(at(`/${sets}/:set`), async (c) => {
        const { app, sets: store } = evalSetsOf(c);
        return c.json(await store.getSet(app.name, pathId(c, "set")));
      })
      .delete(at(`/${sets}/:set`), async (c) => {
        const { app, sets: store } = evalSetsOf(c);
        await store.deleteSet(app.name, pathId(c, "set"));
        return c.json(null);
      })
      .get(at(`/${sets}/:set/${cases}/:case`), async (c) => {
        const { app, sets: store } = evalSetsOf(c);
        return c.json(await store.getCase(app.name, pathId(c, "set"), pathId(c, "case")));
      })
      .put(at(`/${sets}/:set/${cases}/:case`), updateCase)
      .delete(at(`/${sets}/:set/${cases}/:case`), async (c) => {
        const { app, sets: store } = evalSetsOf(c);
        await store.deleteCase(app.name, pathId(c, "set"), pathId(c, "case"));
        return c.json(null);
      })
      .get(at(`/${results}/:result`), async (c) => {
        const { app, sets: store } = evalSetsOf(c);
        return c.json(await store.getResult(app.name, pathId(c, "result")));
      });
  }
}
