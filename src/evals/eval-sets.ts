import type { z } from "zod";
import { BatonError } from "../core/errors.js";
import { toWireSeconds } from "../core/ids.js";
import type { Clock } from "../core/ports.js";
import {
  type EvalCase,
  type EvalSet,
  type EvalSetResult,
  EvalSetResultSchema,
  EvalSetSchema,
} from "./eval-set.js";
import type { EvalDocumentKind, EvalDocumentStore, IdPage } from "./eval-store.js";

/**
 * ADK's `EvalSetsManager` and `EvalSetResultsManager` over any `EvalDocumentStore`: eval sets per app, their
 * cases, and the results of their runs. A case is changed by rewriting its set (a set is one document), so
 * two writers of the same set at once may lose one's change: these are a developer's tools, not a
 * shared workload (decision 034).
 */
export class EvalSets {
  constructor(
    private readonly store: EvalDocumentStore,
    private readonly clock: Clock,
  ) {}

  listSets(appName: string, page?: IdPage): Promise<string[]> {
    return this.store.list(appName, "set", page);
  }

  /** The set, or a 404 `not_found` naming it. */
  async getSet(appName: string, evalSetId: string): Promise<EvalSet> {
    const json = await this.store.get(appName, "set", evalSetId);
    if (json === null)
      throw new BatonError("not_found", `Eval set "${evalSetId}" not found in app "${appName}".`);
    return parseStored(EvalSetSchema, json, "set", evalSetId);
  }

  /** A new empty set (ADK keeps only the id, name and description of what is sent); 400 if the id is taken. */
  async createSet(appName: string, request: Pick<EvalSet, "evalSetId" | "name" | "description">) {
    if ((await this.store.get(appName, "set", request.evalSetId)) !== null)
      throw new BatonError(
        "invalid_request",
        `Eval set "${request.evalSetId}" already exists in app "${appName}".`,
      );
    const evalSet: EvalSet = {
      evalSetId: request.evalSetId,
      ...(request.name === undefined ? {} : { name: request.name }),
      ...(request.description === undefined ? {} : { description: request.description }),
      evalCases: [],
      creationTimestamp: toWireSeconds(this.clock.now()),
    };
    await this.putSet(appName, evalSet);
    return evalSet;
  }

  /** Stores a whole set, replacing one with its id (what `npm run eval -- --record` and imports use). */
  putSet(appName: string, evalSet: EvalSet): Promise<void> {
    return this.store.put(appName, "set", evalSet.evalSetId, JSON.stringify(evalSet));
  }

  async deleteSet(appName: string, evalSetId: string): Promise<void> {
    if (!(await this.store.delete(appName, "set", evalSetId)))
      throw new BatonError("not_found", `Eval set "${evalSetId}" not found in app "${appName}".`);
  }

  /**
   * Adds a case, replacing one with its id: the dev UI asks "already exists, overwrite it?" before it
   * sends the same id again (ADK's Python server refuses it instead).
   */
  async putCase(appName: string, evalSetId: string, evalCase: EvalCase): Promise<void> {
    const evalSet = await this.getSet(appName, evalSetId);
    const others = evalSet.evalCases.filter((c) => c.evalId !== evalCase.evalId);
    await this.putSet(appName, { ...evalSet, evalCases: [...others, evalCase] });
  }

  async getCase(appName: string, evalSetId: string, evalId: string): Promise<EvalCase> {
    const found = (await this.getSet(appName, evalSetId)).evalCases.find((c) => c.evalId === evalId);
    if (!found) throw caseNotFound(evalSetId, evalId);
    return found;
  }

  /** Replaces an existing case in place (404 when the set has none with its id). */
  async updateCase(appName: string, evalSetId: string, evalCase: EvalCase): Promise<void> {
    const evalSet = await this.getSet(appName, evalSetId);
    const at = evalSet.evalCases.findIndex((c) => c.evalId === evalCase.evalId);
    if (at < 0) throw caseNotFound(evalSetId, evalCase.evalId);
    const evalCases = evalSet.evalCases.map((c, i) => (i === at ? evalCase : c));
    await this.putSet(appName, { ...evalSet, evalCases });
  }

  async deleteCase(appName: string, evalSetId: string, evalId: string): Promise<void> {
    const evalSet = await this.getSet(appName, evalSetId);
    const evalCases = evalSet.evalCases.filter((c) => c.evalId !== evalId);
    if (evalCases.length === evalSet.evalCases.length) throw caseNotFound(evalSetId, evalId);
    await this.putSet(appName, { ...evalSet, evalCases });
  }

  putResult(appName: string, result: EvalSetResult): Promise<void> {
    return this.store.put(appName, "result", result.evalSetResultId, JSON.stringify(result));
  }

  listResults(appName: string, page?: IdPage): Promise<string[]> {
    return this.store.list(appName, "result", page);
  }

  async getResult(appName: string, evalSetResultId: string): Promise<EvalSetResult> {
    const json = await this.store.get(appName, "result", evalSetResultId);
    if (json === null)
      throw new BatonError("not_found", `Eval result "${evalSetResultId}" not found in app "${appName}".`);
    return parseStored(EvalSetResultSchema, json, "result", evalSetResultId);
  }
}

const caseNotFound = (evalSetId: string, evalId: string) =>
  new BatonError("not_found", `Eval case "${evalId}" not found in eval set "${evalSetId}".`);

/** A stored document read back; one that no longer parses is a 500 `storage_error` naming it. */
function parseStored<S extends z.ZodType>(
  schema: S,
  json: string,
  kind: EvalDocumentKind,
  id: string,
): z.output<S> {
  const parsed = schema.safeParse(JSON.parse(json));
  if (!parsed.success)
    throw new BatonError("storage_error", `The stored eval ${kind} "${id}" cannot be read.`);
  return parsed.data;
}
