// The official MCP conformance suite's server scenarios against the conformance fixture Worker
// (scripts/conformance/fixture) under `wrangler dev`: used by `npm run conformance:mcp` (mcp.ts) and by
// test/interop/mcp/mcp-conformance-suite.test.ts (CI). The suite needs Node 22: when this Node is older, the
// suite and a Node 22 binary are installed from the npm registry into a tools folder outside the project
// (BATON_CONFORMANCE_TOOLS, by default <tmp>/baton-conformance-tools), never into its dependencies.
import { execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
/** The suite's version this runner was written against (its scenarios and checks.json format). */
const SUITE = "@modelcontextprotocol/conformance@0.2.0-alpha.12";
/** The requirement sets run: the suite's `--spec-version` filter (cumulative for date versions). */
export const SPEC_VERSIONS = ["2025-06-18", "2025-11-25", "2026-07-28"] as const;
export type SpecVersion = (typeof SPEC_VERSIONS)[number];

interface Check {
  id: string;
  status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO" | "SKIPPED";
  errorMessage?: string;
}

export interface ScenarioResult {
  scenario: string;
  passed: number;
  failed: number;
  warnings: number;
  firstProblem: string | undefined;
}

/** A Node ≥ 22 and the suite's entry: this Node if it is new enough, else both installed in the tools folder. */
export function tools(): { node: string; suite: string } {
  const dir = process.env.BATON_CONFORMANCE_TOOLS ?? join(tmpdir(), "baton-conformance-tools");
  const suite = join(dir, "node_modules/@modelcontextprotocol/conformance/dist/index.js");
  const major = Number(process.versions.node.split(".")[0]);
  const nodePackage = `node-${process.platform}-${process.arch}`;
  const node = major >= 22 ? process.execPath : join(dir, "node_modules", nodePackage, "bin/node");
  if (!existsSync(suite) || !existsSync(node)) {
    mkdirSync(dir, { recursive: true });
    if (!existsSync(join(dir, "package.json"))) writeFileSync(join(dir, "package.json"), "{}\n");
    const packages = major >= 22 ? [SUITE] : [SUITE, `${nodePackage}@22`];
    console.log(`Installing ${packages.join(" and ")} into ${dir}`);
    execFileSync("npm", ["install", "--no-audit", "--no-fund", "--prefix", dir, ...packages], {
      stdio: "inherit",
    });
  }
  return { node, suite };
}

/** A port nothing listens on right now. */
async function freePort(): Promise<number> {
  const server = createServer().listen(0, "127.0.0.1");
  await once(server, "listening");
  const address = server.address();
  server.close();
  await once(server, "close");
  return typeof address === "object" && address !== null ? address.port : 0;
}

/**
 * The fixture Worker under `wrangler dev` (the CLI: through wrangler's `unstable_startWorker` every MCP
 * request timed out, its streamed answers never reaching the suite) on a free port of 127.0.0.1.
 */
export async function startFixture() {
  const port = await freePort();
  const wrangler = join(ROOT, "node_modules/.bin/wrangler");
  const config = join(ROOT, "scripts/conformance/fixture/wrangler.toml");
  const child = spawn(wrangler, ["dev", "-c", config, "--ip", "127.0.0.1", "--port", String(port)], {
    cwd: ROOT,
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
    stdio: ["ignore", "ignore", "inherit"],
    detached: true,
  });
  const dispose = async () => {
    if (child.exitCode !== null || child.pid === undefined) return;
    const exited = once(child, "exit");
    process.kill(-child.pid, "SIGTERM"); // wrangler and the workerd it started, and nothing else
    await exited;
  };
  for (let tries = 0; tries < 120; tries += 1) {
    if (child.exitCode !== null) throw new Error(`wrangler dev exited with ${child.exitCode}`);
    const up = await fetch(`http://127.0.0.1:${port}/health`).then(
      (res) => res.ok,
      () => false,
    );
    if (up) return { port: String(port), dispose };
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  await dispose();
  throw new Error("wrangler dev did not answer /health within two minutes");
}

/** Every scenario's checks, from the suite's output folder (one `server-<scenario>-<time>/checks.json` each). */
function resultsIn(dir: string): ScenarioResult[] {
  return readdirSync(dir)
    .filter((name) => existsSync(join(dir, name, "checks.json")))
    .sort()
    .map((name) => {
      const checks: Check[] = JSON.parse(readFileSync(join(dir, name, "checks.json"), "utf8"));
      const scenario = name.replace(/^server-/, "").replace(/-\d{4}-\d\d-\d\dT.*$/, "");
      const failed = checks.filter((c) => c.status === "FAILURE");
      const warned = checks.filter((c) => c.status === "WARNING");
      return {
        scenario,
        passed: checks.filter((c) => c.status === "SUCCESS").length,
        failed: failed.length,
        warnings: warned.length,
        firstProblem: (failed[0] ?? warned[0])?.errorMessage ?? (failed[0] ?? warned[0])?.id,
      };
    });
}

export const verdict = (r: ScenarioResult) =>
  r.failed > 0 ? "fail" : r.passed > 0 ? (r.warnings > 0 ? "pass (warnings)" : "pass") : "no verdict";

/**
 * Why a scenario gives no verdict against Baton (one line each; docs/conformance.md shows it). None of them
 * excuses a failed check: the CI test (test/interop/mcp/mcp-conformance-suite.test.ts) fails on any.
 */
export const WHY_NO_VERDICT: Readonly<Record<string, string>> = {
  "server-session-lifecycle":
    "/mcp/<app> is stateless (no Mcp-Session-Id, decision 048): no session lifecycle to judge",
  "server-sse-multiple-streams":
    "under 2025-11-25 it needs a session (Mcp-Session-Id) and a GET stream; /mcp/<app> is stateless",
  "server-sse-polling":
    "it needs a session and SSE resumption (Last-Event-ID) on a GET stream; /mcp/<app> is stateless",
  "tasks-status-notifications":
    "the suite runs no check: its harness is disabled until notifications/tasks move to subscriptions/listen",
};

/** Why a scenario that does not pass does not, or its first problem. */
const whyNot = (r: ScenarioResult): string =>
  verdict(r) === "pass"
    ? ""
    : r.failed === 0 && r.passed === 0
      ? (WHY_NO_VERDICT[r.scenario] ?? r.firstProblem ?? "")
      : (r.firstProblem ?? "");

export function table(all: Map<string, ScenarioResult[]>): string {
  const lines = [
    "| requirement set | scenario | result | checks passed / failed / warned | why not / first problem |",
  ];
  lines.push("| --- | --- | --- | --- | --- |");
  for (const [version, results] of all)
    for (const r of results)
      lines.push(
        `| ${version} | ${r.scenario} | ${verdict(r)} | ${r.passed} / ${r.failed} / ${r.warnings} | ${whyNot(r).replaceAll("|", "\\|").slice(0, 200)} |`,
      );
  for (const [version, results] of all) {
    const failed = results.filter((r) => r.failed > 0).length;
    lines.push(
      "",
      `${version}: ${results.length - failed} of ${results.length} scenarios without a failed check.`,
    );
  }
  return lines.join("\n");
}

/** What wrangler dev answers when it reloaded the Worker under a request: the dev server's, not Baton's. */
const RESTARTED = "Your worker restarted mid-request";

/**
 * Runs the suite's server scenarios of `version` against `url` and reads their checks (the suite exits 1
 * when a scenario fails; its results are read either way). A scenario that failed only because wrangler
 * dev reloaded the Worker under it runs once more, alone.
 */
export function runSuite(
  toolsAt: { node: string; suite: string },
  url: string,
  version: SpecVersion,
  out: string,
): ScenarioResult[] {
  const run = (dir: string, selection: readonly string[]) => {
    try {
      execFileSync(
        toolsAt.node,
        [toolsAt.suite, "server", "--url", url, ...selection, "--spec-version", version, "-o", dir],
        { stdio: ["ignore", "ignore", "inherit"] },
      );
    } catch {
      // A failed scenario: read below.
    }
    return resultsIn(dir);
  };
  return run(join(out, version), ["--suite", "all"]).map((result) => {
    if (!result.firstProblem?.includes(RESTARTED)) return result;
    const again = run(join(out, `${version}-again-${result.scenario}`), ["--scenario", result.scenario]);
    return again.find((r) => r.scenario === result.scenario) ?? result;
  });
}

/**
 * The Tasks extension's scenarios (SEP-2663, `io.modelcontextprotocol/tasks`): extension scenarios, which
 * the suite's `--spec-version` filter leaves out, so each runs by name (`--scenario`).
 */
export const TASKS_SCENARIOS = [
  "tasks-capability-negotiation",
  "tasks-lifecycle",
  "tasks-wire-fields",
  "tasks-request-state-removal",
  "tasks-request-headers",
  "tasks-dispatch-and-envelope",
  "tasks-required-task-error",
  "tasks-mrtr-input",
  "tasks-mrtr-composition",
  "tasks-status-notifications",
] as const;

/** Runs the tasks scenarios against `url`, one by one, and reads their checks. */
export function runTasksSuite(
  toolsAt: { node: string; suite: string },
  url: string,
  out: string,
): ScenarioResult[] {
  return TASKS_SCENARIOS.flatMap((scenario) => {
    const dir = join(out, "tasks", scenario);
    try {
      execFileSync(toolsAt.node, [toolsAt.suite, "server", "--url", url, "--scenario", scenario, "-o", dir], {
        stdio: ["ignore", "ignore", "inherit"],
      });
    } catch {
      // A failed scenario: read below.
    }
    return existsSync(dir) ? resultsIn(dir) : [];
  });
}
