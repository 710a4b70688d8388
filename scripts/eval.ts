// `npm run eval -- <app> <evalset.json>`: runs an ADK eval set against an app in Node, with the in-memory
// stores, prints each case's score per metric and exits 1 when a case falls under a threshold (2 for a
// usage or input error), so a CI can gate a deploy on it. docs/evals.md.
//
//   npm run eval -- demo evals/demo.evalset.json
//   npm run eval -- ./src/my-app.ts evals/my.evalset.json --config evals/test_config.json
//   npm run eval -- demo evals/demo.evalset.json --record weather_lisbon "What is the weather in Lisbon?"
//
// <app> is a module file exporting an app (`defineApp`), or the name of an app exported by `--module`
// (default: the demo Worker's apps in src/demo/app.ts). Thresholds come from `--config` (ADK's
// test_config.json), else a test_config.json beside the eval set, else ADK's defaults.
import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { userText } from "../src/core/content.js";
import { emptyState } from "../src/evals/empty-state.js";
import { evalSetFileText, parseEvalSetFile } from "../src/evals/eval-file.js";
import type { EvalCase, EvalMetric, EvalSet } from "../src/evals/eval-set.js";
import { EvalStatus } from "../src/evals/eval-set.js";
import { invocationsOf } from "../src/evals/invocations.js";
import { resolveMetrics } from "../src/evals/metrics.js";
import { metricsFromConfig, reportLines } from "../src/evals/report.js";
import { DEFAULT_EVAL_USER_ID, runEvalSet } from "../src/evals/run-eval.js";
import type { App } from "../src/runner/app.js";
import { Runner } from "../src/services/defaults.js";
import { InMemorySessionStore } from "../src/session/in-memory-store.js";

const DEFAULT_MODULE = "src/demo/app.ts";

class UsageError extends Error {}

const isApp = (value: unknown): value is App =>
  typeof value === "object" &&
  value !== null &&
  typeof (value as App).name === "string" &&
  typeof (value as App).rootAgent === "object" &&
  (value as App).agents instanceof Map;

async function appsOf(file: string): Promise<App[]> {
  const path = resolve(file);
  if (!existsSync(path)) throw new UsageError(`No such module: ${file}`);
  const exported: Record<string, unknown> = await import(pathToFileURL(path).href);
  return [...new Set(Object.values(exported).filter(isApp))];
}

/** The app `spec` names: a module file's one app, or the app of that name among `module`'s exports. */
async function loadApp(spec: string, module: string): Promise<App> {
  if (/\.[cm]?[jt]s$/.test(spec)) {
    const apps = await appsOf(spec);
    if (apps.length !== 1)
      throw new UsageError(
        `${spec} exports ${apps.length} apps; export one, or name it with --module ${spec}.`,
      );
    // SAFETY: exactly one, checked above.
    return apps[0] as App;
  }
  const apps = await appsOf(module);
  const app = apps.find((a) => a.name === spec);
  if (!app)
    throw new UsageError(`No app "${spec}" in ${module}; it exports: ${apps.map((a) => a.name).join(", ")}.`);
  return app;
}

/** `--config`, else a `test_config.json` beside the eval set (as `adk eval` looks for it), else none. */
async function metricsFor(evalSetFile: string, config: string | undefined): Promise<EvalMetric[]> {
  const beside = join(dirname(evalSetFile), "test_config.json");
  const file = config ?? (existsSync(beside) ? beside : undefined);
  if (!file) return resolveMetrics(undefined);
  const fromFile = metricsFromConfig(JSON.parse(await readFile(file, "utf8")));
  return resolveMetrics(fromFile ?? undefined);
}

/** Runs `messages` as turns of a fresh session and writes them as case `evalId` of the file (made if missing). */
async function record(app: App, file: string, evalId: string, messages: string[]): Promise<void> {
  const sessionStore = new InMemorySessionStore();
  const runner = new Runner({ app, sessionStore });
  const session = await sessionStore.createSession({ appName: app.name, userId: DEFAULT_EVAL_USER_ID });
  const key = { appName: app.name, userId: DEFAULT_EVAL_USER_ID, sessionId: session.id };
  for (const message of messages)
    for await (const _event of runner.run({ ...key, newMessage: userText(message) })) {
      // stored as they come
    }
  const events = (await sessionStore.getSession(key))?.events ?? [];
  const now = Date.now() / 1000;
  const evalCase: EvalCase = {
    evalId,
    conversation: invocationsOf(events),
    sessionInput: { appName: app.name, userId: DEFAULT_EVAL_USER_ID, state: emptyState(app.rootAgent) },
    creationTimestamp: now,
  };
  const existing: EvalSet = existsSync(file)
    ? parseEvalSetFile(await readFile(file, "utf8"), file)
    : {
        evalSetId: basename(file).replace(/\.evalset\.json$|\.json$/, ""),
        evalCases: [],
        creationTimestamp: now,
      };
  const evalCases = [...existing.evalCases.filter((c) => c.evalId !== evalId), evalCase];
  await writeFile(file, evalSetFileText({ ...existing, evalCases }));
  const n = evalCase.conversation.length;
  console.log(`recorded ${evalId} (${n} invocation${n === 1 ? "" : "s"}) in ${file}`);
}

async function main(): Promise<number> {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      module: { type: "string", default: DEFAULT_MODULE },
      config: { type: "string" },
      record: { type: "string" },
      json: { type: "boolean", default: false },
    },
  });
  const [appSpec, file, ...messages] = positionals;
  if (!appSpec || !file)
    throw new UsageError("usage: npm run eval -- <app> <evalset.json> [--config <test_config.json>]");
  const app = await loadApp(appSpec, values.module);
  if (values.record !== undefined) {
    if (messages.length === 0)
      throw new UsageError("--record <eval_id> needs one or more user messages to send.");
    await record(app, file, values.record, messages);
    return 0;
  }
  if (messages.length > 0) throw new UsageError(`Unexpected arguments: ${messages.join(" ")}`);
  if (!existsSync(file)) throw new UsageError(`No such eval set file: ${file}`);
  const evalSet = parseEvalSetFile(await readFile(file, "utf8"), file);
  const metrics = await metricsFor(file, values.config);
  const sessionStore = new InMemorySessionStore();
  const runner = new Runner({ app, sessionStore });
  const clock = { now: () => Date.now() };
  const ids = { uuid: () => crypto.randomUUID() };
  const result = await runEvalSet({ runner, sessionStore, clock, ids }, evalSet, [], metrics);
  if (values.json) console.log(JSON.stringify(result, null, 2));
  else for (const line of reportLines(result)) console.log(line);
  const failed = result.evalCaseResults.some((c) => c.finalEvalStatus === EvalStatus.FAILED);
  return failed ? 1 : 0;
}

main().then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exitCode = 2;
  },
);
