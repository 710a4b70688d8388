import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";

/*
 * `npm run eval` as a CI runs it: a child process on the shipped eval set of the demo app, then on copies
 * of it with one expectation edited. The exit code is what gates a deploy.
 */

const ROOT = join(import.meta.dirname, "../../..");
const SHIPPED = join(ROOT, "evals/demo.evalset.json");
const work = mkdtempSync(join(tmpdir(), "baton-eval-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

interface Outcome {
  code: number;
  stdout: string;
  stderr: string;
}

/** `npm run eval -- <args>` (the script it runs, without npm's banner). */
function evalCommand(...args: string[]): Promise<Outcome> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--import", "tsx", "scripts/eval.ts", ...args],
      { cwd: ROOT, timeout: 60_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : -1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

/** The parts of ADK's file form these edits touch. */
interface FileCase {
  eval_id: string;
  conversation: { intermediate_data: { tool_uses: { name: string; args: Record<string, unknown> }[] } }[];
}
interface FileSet {
  eval_cases: FileCase[];
}

/** A copy of the shipped set with `edit` applied to its parsed JSON. */
function editedCopy(name: string, edit: (set: FileSet) => void): string {
  const set = JSON.parse(readFileSync(SHIPPED, "utf8"));
  edit(set);
  const file = join(work, name);
  writeFileSync(file, JSON.stringify(set, null, 2));
  return file;
}

function caseOf(set: FileSet, id: string): FileCase {
  const found = set.eval_cases.find((c) => c.eval_id === id);
  if (!found) throw new Error(`The shipped eval set has no case ${id}`);
  return found;
}

// Each case starts `npm run eval` (node + tsx) once or twice: seconds each on a loaded two-core machine.
describe("npm run eval", { timeout: 60_000 }, () => {
  it("passes the shipped eval set of the demo app and exits 0", async () => {
    const { code, stdout } = await evalCommand("demo", "evals/demo.evalset.json");
    expect(stdout).toMatch(/^PASS {2}weather_lisbon$/m);
    expect(stdout).toMatch(/tool_trajectory_avg_score +1\.000 \(threshold 1\) +PASS/);
    expect(stdout).toMatch(/response_match_score +1\.000 \(threshold 0\.8\) +PASS/);
    expect(stdout).toContain("eval set demo: 3 of 3 cases passed");
    expect(code).toBe(0);
  });

  it("fails, exit 1, when an expected tool call's arguments are edited", async () => {
    const file = editedCopy("city.evalset.json", (set) => {
      const [first] = caseOf(set, "weather_lisbon").conversation;
      const call = first?.intermediate_data.tool_uses[1];
      if (!call) throw new Error("The shipped weather_lisbon case lost its get_forecast call");
      call.args.city = "Porto";
    });
    const { code, stdout } = await evalCommand("demo", file);
    expect(stdout).toMatch(/^FAIL {2}weather_lisbon$/m);
    // Two invocations, the first's trajectory now wrong: 0.5 under the threshold 1.0.
    expect(stdout).toMatch(/tool_trajectory_avg_score +0\.500 \(threshold 1\) +FAIL/);
    expect(stdout).toContain(
      'expected tools: [{"name":"transfer_to_agent","args":{"agent_name":"weather"}},{"name":"get_forecast","args":{"city":"Porto"}}]',
    );
    expect(stdout).toContain("eval set demo: 2 of 3 cases passed");
    expect(code).toBe(1);
  });

  it("fails when an expected tool call is removed from the trajectory", async () => {
    const file = editedCopy("dropped.evalset.json", (set) => {
      for (const invocation of caseOf(set, "refund").conversation)
        invocation.intermediate_data.tool_uses = [];
    });
    const { code, stdout } = await evalCommand("demo", file);
    expect(stdout).toMatch(/^FAIL {2}refund$/m);
    expect(code).toBe(1);
  });

  it("takes thresholds from ADK's test_config.json: a lenient trajectory threshold passes the edit", async () => {
    const file = editedCopy("lenient.evalset.json", (set) => {
      const [first] = caseOf(set, "weather_lisbon").conversation;
      const call = first?.intermediate_data.tool_uses[1];
      if (!call) throw new Error("The shipped weather_lisbon case lost its get_forecast call");
      call.args.city = "Porto";
    });
    const config = join(work, "lenient_config.json");
    writeFileSync(
      config,
      JSON.stringify({ criteria: { tool_trajectory_avg_score: 0.5, response_match_score: 0.8 } }),
    );
    const { code, stdout } = await evalCommand("demo", file, "--config", config);
    expect(stdout).toMatch(/tool_trajectory_avg_score +0\.500 \(threshold 0\.5\) +PASS/);
    expect(code).toBe(0);
  });

  it("exits 2 with a sentence for an unknown app or a file that is not an eval set", async () => {
    const unknown = await evalCommand("nope", "evals/demo.evalset.json");
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('No app "nope" in src/demo/app.ts; it exports: demo.');
    const bad = join(work, "bad.json");
    writeFileSync(bad, JSON.stringify({ eval_cases: [] }));
    const invalid = await evalCommand("demo", bad);
    expect(invalid.code).toBe(2);
    expect(invalid.stderr).toMatch(/is not an ADK eval set: evalSetId/);
  });
});
