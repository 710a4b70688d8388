// `npm run conformance -- [--cases DIR] [case ...]`: ADK's conformance cases played over HTTP against the
// Worker in replay mode under `wrangler dev`. One line per case, `<case-id> pass|fail`; exit 1 on any
// failure or case that cannot be loaded. See docs/conformance.md.
import { rmSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { parseArgs } from "node:util";
import { CONFORMANCE_DIR, discoverCases } from "./data-dir.js";
import { type LoadedCase, loadCase, type UnloadableCase } from "./load-case.js";
import { playCase, type Send } from "./play-case.js";
import { conformanceRegistry } from "./registry.js";
import { selectCases } from "./select-cases.js";

const USAGE = "usage: npm run conformance -- [--cases DIR] [case ...]   (a case is category/name or name)";

/** The first problem, shown under a failing case: at most its first three lines, indented. */
const firstDifference = (problems: readonly string[]): string =>
  (problems[0] ?? "")
    .split("\n")
    .slice(0, 3)
    .map((line) => `    ${line.trim()}`)
    .join("\n");

async function playAll(cases: readonly LoadedCase[]): Promise<Map<string, string[]>> {
  const results = new Map<string, string[]>();
  if (cases.length === 0) return results;
  const apps = new Map(cases.map((c) => [c.app.name, c.app]));
  // Loaded only when there is something to play: wrangler takes seconds to import.
  const { startReplayWorker, writeReplayEntry } = await import("./replay-worker.js");
  const entry = writeReplayEntry([...apps.values()]);
  const worker = await startReplayWorker(entry).catch((error: unknown) => {
    rmSync(dirname(entry), { recursive: true, force: true });
    throw error;
  });
  try {
    const send: Send = (path, method = "GET", json) =>
      fetch(`${worker.origin}${path}`, {
        method,
        ...(json === undefined
          ? {}
          : { body: JSON.stringify(json), headers: { "content-type": "application/json" } }),
      });
    for (const c of cases) {
      try {
        results.set(c.id, await playCase(c.dir, c.files, send));
      } catch (error) {
        results.set(c.id, [`the run failed: ${error instanceof Error ? error.message : String(error)}`]);
      }
    }
  } finally {
    await worker.dispose();
    rmSync(dirname(entry), { recursive: true, force: true });
  }
  return results;
}

async function main(): Promise<number> {
  const started = performance.now();
  const { values, positionals } = parseArgs({
    options: { cases: { type: "string" }, help: { type: "boolean", short: "h" } },
    allowPositionals: true,
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const root = values.cases === undefined ? CONFORMANCE_DIR : resolve(values.cases);
  const selected = selectCases(discoverCases(root), positionals);
  const loads = selected.found.map((ref) => loadCase(root, ref, conformanceRegistry));
  const loaded = loads.filter((c): c is LoadedCase => "files" in c);
  const unloadable = new Map(
    loads.filter((c): c is UnloadableCase => "problem" in c).map((c) => [c.id, c.problem]),
  );
  const results = await playAll(loaded);
  let failed = 0;
  for (const ref of selected.found) {
    const id = `${ref.category}/${ref.name}`;
    const problem = unloadable.get(id);
    const problems = results.get(id) ?? [];
    if (problem === undefined && problems.length === 0) {
      console.log(`${id} pass`);
      continue;
    }
    failed++;
    console.log(`${id} fail`);
    console.log(problem === undefined ? firstDifference(problems) : `    could not load: ${problem}`);
  }
  for (const name of selected.missing)
    console.log(`${name} fail\n    could not load: no such case under ${root}/tests`);
  const total = selected.found.length + selected.missing.length;
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `${total - failed - selected.missing.length} passed, ${failed + selected.missing.length} failed ` +
      `(${unloadable.size + selected.missing.length} could not be loaded) in ${seconds} s`,
  );
  return failed + selected.missing.length > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(`conformance: ${error instanceof Error ? error.message : String(error)}`);
    console.error(USAGE);
    process.exit(2);
  },
);
