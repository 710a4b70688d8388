import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { API_DIR, apiReports, reportFile } from "../../../scripts/api-report.js";

describe("the public API report (api/*.api.txt)", () => {
  // One TypeScript program over every entry: seconds, more on a busy machine.
  const reports = apiReports();

  it("has one report per package.json exports entry", () => {
    const pkg = JSON.parse(readFileSync(join(API_DIR, "../package.json"), "utf8"));
    const entries = Object.keys(pkg.exports).filter((entry) => entry !== "./package.json");
    expect([...reports.keys()].sort()).toEqual(entries.map(reportFile).sort());
    expect(readdirSync(API_DIR).sort()).toEqual([...reports.keys()].sort());
  });

  it("matches the sources: a changed public export needs `npm run api:report` and a CHANGELOG line", () => {
    for (const [file, text] of reports)
      expect(text, `api/${file} is stale: run npm run api:report`).toBe(
        readFileSync(join(API_DIR, file), "utf8"),
      );
  });

  it("has only classes, functions and types in @baton-agents/core/cloudflare: apps re-export it from their Worker's main module, where workerd refuses any other value", () => {
    const values = (reports.get("cloudflare.api.txt") ?? "")
      .split("\n")
      .filter((line) => /^(const|enum) /.test(line))
      // A const holding a function is a handler workerd accepts; anything else fails the Worker at startup.
      .filter((line) => !/^const [\w$]+: (<[^>]*>)?\(/.test(line));
    expect(values).toEqual([]);
  });

  it("lists exports with their signatures and members", () => {
    const index = reports.get("index.api.txt") ?? "";
    expect(index).toContain("function aiSdkRuntime(options: AiSdkRuntimeOptions): AgentRuntime");
    expect(index).toMatch(/^class LlmAgent$/m);
    expect(index).toMatch(/^interface AiSdkRuntimeOptions\n(?: {2}.*\n)*? {2}model: /m);
  });
});
