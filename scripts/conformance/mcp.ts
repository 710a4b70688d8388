// `npm run conformance:mcp [-- --write]`: the official MCP conformance suite's server scenarios against the
// conformance fixture Worker under `wrangler dev`, for each requirement set (2025-06-18, 2025-11-25,
// 2026-07-28) and the Tasks extension's scenarios (mcp-suite.ts). Prints one line per scenario; with --write, puts the table into
// docs/conformance.md between its mcp-server markers. Exit 1 on a failure.
import { readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import {
  runSuite,
  runTasksSuite,
  type ScenarioResult,
  SPEC_VERSIONS,
  startFixture,
  table,
  tools,
  verdict,
} from "./mcp-suite.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const DOC = join(ROOT, "docs/conformance.md");
const BEGIN = "<!-- mcp-server:begin (npm run conformance:mcp -- --write) -->";
const END = "<!-- mcp-server:end -->";

async function main(): Promise<number> {
  const { values } = parseArgs({ options: { write: { type: "boolean", default: false } } });
  const { node, suite } = tools();
  const fixture = await startFixture();
  const all = new Map<string, ScenarioResult[]>();
  const out = join(tmpdir(), `baton-mcp-conformance-${process.pid}`);
  try {
    const url = `http://localhost:${fixture.port}/mcp/conformance`;
    for (const version of SPEC_VERSIONS) {
      const results = runSuite({ node, suite }, url, version, out);
      all.set(version, results);
      for (const r of results)
        console.log(`${version} ${r.scenario} ${verdict(r)}${r.firstProblem ? `: ${r.firstProblem}` : ""}`);
    }
    // The Tasks extension's scenarios, which no requirement set holds (an extension's), by name.
    const tasks = runTasksSuite({ node, suite }, url, out);
    all.set("tasks extension", tasks);
    for (const r of tasks)
      console.log(`tasks ${r.scenario} ${verdict(r)}${r.firstProblem ? `: ${r.firstProblem}` : ""}`);
  } finally {
    await fixture.dispose();
  }
  const report = table(all);
  console.log(`\n${report}`);
  if (values.write) {
    const doc = readFileSync(DOC, "utf8");
    const from = doc.indexOf(BEGIN);
    const to = doc.indexOf(END);
    if (from < 0 || to < from) throw new Error(`docs/conformance.md has no ${BEGIN} … ${END} markers`);
    writeFileSync(DOC, `${doc.slice(0, from + BEGIN.length)}\n${report}\n${doc.slice(to)}`);
  }
  return [...all.values()].flat().some((r) => r.failed > 0) ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(2);
  },
);
