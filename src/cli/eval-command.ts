/**
 * ADK's `adk eval` for Baton apps, in Node with the in-memory stores: runs eval sets against an app, prints
 * each case's score per metric and returns 1 when a case falls under a threshold (2 for a usage or input
 * error), so a CI can gate a deploy on it. The `baton-eval` bin and this repo's `npm run eval`.
 *
 *   baton-eval src/app.ts evals                      every *.evalset.json under evals/
 *   baton-eval src/app.ts evals/billing.evalset.json --config evals/test_config.json
 *   baton-eval src/app.ts evals/billing.evalset.json --record invoice_42 "Is invoice 42 paid?"
 *
 * <app> is a module file exporting one app (`defineApp`), or the name of an app exported by `--module`.
 * The module's `models` export (an array of providers) registers real models; their keys come from the
 * environment or `.dev.vars`. Thresholds come from `--config` (ADK's test_config.json), else a
 * test_config.json beside the eval set, else ADK's defaults.
 */
import { existsSync, statSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { parseArgs } from "node:util";
import { parseEvalSetFile } from "../evals/eval-file.js";
import type { EvalMetric } from "../evals/eval-set.js";
import { EvalStatus } from "../evals/eval-set.js";
import { resolveMetrics } from "../evals/metrics.js";
import { metricsFromConfig, reportLines } from "../evals/report.js";
import { runEvalSet } from "../evals/run-eval.js";
import type { ModelProvider } from "../models/model-provider.js";
import type { App } from "../runner/app.js";
import { Runner } from "../services/defaults.js";
import { InMemorySessionStore } from "../session/in-memory-store.js";
import { recordCase } from "./eval-record.js";
import { loadApp, settings, UsageError } from "./load-app.js";

export interface EvalCommandOptions {
  /** How the usage line names the command (`baton-eval`, `npm run eval --`). */
  command: string;
  /** The module `<app>` names an app of when it is not a file (`--module`'s default). */
  defaultModule?: string;
  /** Where relative paths start (default: the process's working directory). */
  cwd?: string;
  /** `ambient` when the process already reads TypeScript (run under tsx); else tsx is registered for it. */
  typescript?: "register" | "ambient";
}

/** `--config`, else a `test_config.json` beside the eval set (as `adk eval` looks for it), else none. */
async function metricsFor(evalSetFile: string, config: string | undefined): Promise<EvalMetric[]> {
  const beside = join(dirname(evalSetFile), "test_config.json");
  const file = config ?? (existsSync(beside) ? beside : undefined);
  if (!file) return resolveMetrics(undefined);
  const fromFile = metricsFromConfig(JSON.parse(await readFile(file, "utf8")));
  return resolveMetrics(fromFile ?? undefined);
}

/** The eval set files a path names: the file, or every `*.evalset.json` under a folder, sorted. */
async function evalSetFiles(path: string, cwd: string): Promise<string[]> {
  const full = resolve(cwd, path);
  if (!existsSync(full)) throw new UsageError(`No such eval set file: ${path}`);
  if (!statSync(full).isDirectory()) return [full];
  const entries = await readdir(full, { recursive: true });
  const files = entries.filter((f) => f.endsWith(".evalset.json")).map((f) => join(full, f));
  if (files.length === 0) throw new UsageError(`No *.evalset.json file under ${path}`);
  return files.sort();
}

/** Runs one eval set file; true when no case failed. */
async function runFile(
  app: App,
  models: readonly ModelProvider[],
  file: string,
  values: { config?: string | undefined; json: boolean },
  cwd: string,
): Promise<boolean> {
  const evalSet = parseEvalSetFile(await readFile(file, "utf8"), file);
  const metrics = await metricsFor(
    file,
    values.config === undefined ? undefined : resolve(cwd, values.config),
  );
  const sessionStore = new InMemorySessionStore();
  const runner = new Runner({ app, sessionStore, models, services: { env: settings(cwd) } });
  const clock = { now: () => Date.now() };
  const ids = { uuid: () => crypto.randomUUID() };
  const result = await runEvalSet({ runner, sessionStore, clock, ids }, evalSet, [], metrics);
  if (values.json) console.log(JSON.stringify(result, null, 2));
  else for (const line of reportLines(result)) console.log(line);
  return !result.evalCaseResults.some((c) => c.finalEvalStatus === EvalStatus.FAILED);
}

/** The command's whole run: its exit code (0 all passed, 1 a case failed, 2 a usage or input error). */
async function run(args: readonly string[], options: EvalCommandOptions): Promise<number> {
  const cwd = options.cwd ?? process.cwd();
  const { positionals, values } = parseArgs({
    args: [...args],
    allowPositionals: true,
    options: {
      module: { type: "string" },
      config: { type: "string" },
      record: { type: "string" },
      json: { type: "boolean", default: false },
    },
  });
  const [appSpec, ...rest] = positionals;
  const usage = `usage: ${options.command} <app> <evalset.json or folder>… [--config <test_config.json>]`;
  if (!appSpec || rest.length === 0) throw new UsageError(usage);
  const module = values.module ?? options.defaultModule;
  if (module === undefined && !/\.[cm]?[jt]sx?$/.test(appSpec))
    throw new UsageError(`${appSpec} is not a module file; name the module that exports it with --module.`);
  const typescript = options.typescript ?? "register";
  const { app, models } = await loadApp(appSpec, module ?? appSpec, cwd, typescript);
  if (values.record !== undefined) {
    const [file, ...messages] = rest;
    if (!file || messages.length === 0)
      throw new UsageError(
        "--record <eval_id> needs the eval set file and one or more user messages to send.",
      );
    await recordCase(app, models, resolve(cwd, file), values.record, messages, settings(cwd));
    return 0;
  }
  const files = (await Promise.all(rest.map((path) => evalSetFiles(path, cwd)))).flat();
  let passed = true;
  for (const file of files) passed = (await runFile(app, models, file, values, cwd)) && passed;
  return passed ? 0 : 1;
}

/** Runs the command with `args` (argv without node and the script); never throws: errors are exit code 2. */
export async function evalCommand(args: readonly string[], options: EvalCommandOptions): Promise<number> {
  try {
    return await run(args, options);
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    return 2;
  }
}

export { UsageError };
