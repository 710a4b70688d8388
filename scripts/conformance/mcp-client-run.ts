// `npm run conformance:mcp-client [-- --write]`: the official MCP conformance suite's client scenarios
// against McpToolset (scripts/conformance/mcp-client.ts), each under each requirement set it belongs to
// (mcp-client-suite.ts). Prints one line per run; with --write, puts the table into docs/conformance.md
// between its mcp-client markers. Exit 1 on a failed check.
import { readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { clientTable, clientVerdict, runClientSuite } from "./mcp-client-suite.js";
import { tools } from "./mcp-suite.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const DOC = join(ROOT, "docs/conformance.md");
const BEGIN = "<!-- mcp-client:begin (npm run conformance:mcp-client -- --write) -->";
const END = "<!-- mcp-client:end -->";

function main(): number {
  const { values } = parseArgs({ options: { write: { type: "boolean", default: false } } });
  const out = join(tmpdir(), `baton-mcp-client-conformance-${process.pid}`);
  const results = runClientSuite(tools(), out);
  for (const r of results)
    console.log(
      `${r.scenario} ${r.version} ${clientVerdict(r)}${r.notRun ? `: ${r.notRun}` : r.firstProblem ? `: ${r.firstProblem}` : ""}`,
    );
  const report = clientTable(results);
  console.log(`\n${report}`);
  if (values.write) {
    const doc = readFileSync(DOC, "utf8");
    const from = doc.indexOf(BEGIN);
    const to = doc.indexOf(END);
    if (from < 0 || to < from) throw new Error(`docs/conformance.md has no ${BEGIN} … ${END} markers`);
    writeFileSync(DOC, `${doc.slice(0, from + BEGIN.length)}\n${report}\n${doc.slice(to)}`);
  }
  return results.some((r) => r.failed > 0) ? 1 : 0;
}

process.exit(main());
