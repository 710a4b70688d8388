import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type ClientResult,
  runClientSuite,
  whyNotRun,
} from "../../../scripts/conformance/mcp-client-suite.js";
import { tools } from "../../../scripts/conformance/mcp-suite.js";

// The official MCP conformance suite's client scenarios against McpToolset (scripts/conformance/mcp-client.ts,
// a Baton agent in Node), as `npm run conformance:mcp-client` runs them: every scenario Baton implements,
// under each requirement set it belongs to. The suite and Node 22 install as for the server scenarios.
let suite: ReturnType<typeof tools>;
const out = mkdtempSync(join(tmpdir(), "baton-mcp-client-suite-"));

beforeAll(() => {
  suite = tools();
}, 300_000);
afterAll(() => rmSync(out, { recursive: true, force: true }));

const line = (r: ClientResult) => `${r.scenario} ${r.version}: ${r.firstProblem ?? "(no message)"}`;

describe("the official MCP conformance suite's client scenarios against McpToolset", () => {
  it("fails no check of any client scenario Baton implements", () => {
    const results = runClientSuite(suite, out, (scenario) => whyNotRun(scenario) === undefined);
    expect(results.filter((r) => r.failed > 0).map(line)).toEqual([]);
    // Each run judged something: a client that never reached the server must not pass this test.
    expect(results.filter((r) => r.passed === 0).map(line)).toEqual([]);
    const ran = new Set(results.map((r) => r.scenario));
    for (const core of [
      "initialize",
      "tools_call",
      "sep-2322-client-request-state",
      "http-standard-headers",
      "request-metadata",
    ])
      expect(ran).toContain(core);
  }, 300_000);
});
