// The official MCP conformance suite's client scenarios against Baton's MCP client (McpToolset, driven by
// scripts/conformance/mcp-client.ts): used by `npm run conformance:mcp-client` (mcp-client-run.ts) and by
// test/interop/mcp/mcp-client-conformance.test.ts (CI). The suite and its Node 22 come from mcp-suite.ts's
// `tools()`.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
/** How the suite starts Baton's client: it appends the server's URL. */
const CLIENT = `${process.execPath} --import tsx ${join(ROOT, "scripts/conformance/mcp-client.ts")}`;

export interface ClientScenario {
  scenario: string;
  /** The requirement sets the suite lists it under (a date each, or "extension"). */
  versions: string[];
}

export interface ClientResult {
  scenario: string;
  version: string;
  passed: number;
  failed: number;
  warnings: number;
  /** Why it was not run, when it was not. */
  notRun: string | undefined;
  firstProblem: string | undefined;
}

interface Check {
  id: string;
  status: "SUCCESS" | "FAILURE" | "WARNING" | "INFO" | "SKIPPED";
  errorMessage?: string;
}

/**
 * Why a scenario is not run against Baton (one line each; docs/conformance.md shows it). Checked by
 * prefix: every `auth/` scenario drives an OAuth client flow.
 */
export const NOT_RUN: ReadonlyArray<readonly [prefix: string, why: string]> = [
  ["auth/", "no OAuth client flow in McpToolset: it sends the headers it is given; a 401 is the answer"],
  ["sep-2640-", "the skills extension (SEP-2640) is not part of McpToolset"],
  [
    "elicitation-sep1034-client-defaults",
    "2025-11-25 elicitation is a server request in the middle of a call, which cannot pause a turn: McpToolset declares no elicitation there (run anyway: 0 of 6 checks, the server gets -32601); 2026-07-28's input_required is answered (decision 054)",
  ],
];

export const whyNotRun = (scenario: string): string | undefined =>
  NOT_RUN.find(([prefix]) => scenario.startsWith(prefix))?.[1];

/** The suite's client scenarios with their requirement sets (`conformance list --client`). */
export function clientScenarios(toolsAt: { node: string; suite: string }): ClientScenario[] {
  const listed = execFileSync(toolsAt.node, [toolsAt.suite, "list", "--client"], { encoding: "utf8" });
  return listed.split("\n").flatMap((line) => {
    const match = /^\s+- (\S+) \[([^\]]*)\]/.exec(line);
    return match?.[1] && match[2] !== undefined
      ? [{ scenario: match[1], versions: match[2].split(",").map((v) => v.trim()) }]
      : [];
  });
}

/** Every check of the one run in `dir` (the suite writes `<scenario>-<time>/checks.json`). */
function checksIn(dir: string): Check[] {
  const runs = existsSync(dir) ? readdirSync(dir).filter((n) => existsSync(join(dir, n, "checks.json"))) : [];
  return runs.flatMap((name) => JSON.parse(readFileSync(join(dir, name, "checks.json"), "utf8")) as Check[]);
}

/** Runs one client scenario under one requirement set and reads its checks (the suite exits 1 on a failure). */
export function runClientScenario(
  toolsAt: { node: string; suite: string },
  scenario: string,
  version: string,
  out: string,
): ClientResult {
  const dir = join(out, `${scenario.replaceAll("/", "_")}-${version}`);
  mkdirSync(dir, { recursive: true });
  try {
    execFileSync(
      toolsAt.node,
      [
        toolsAt.suite,
        "client",
        "--command",
        CLIENT,
        "--scenario",
        scenario,
        "--spec-version",
        version,
        "-o",
        dir,
      ],
      { stdio: ["ignore", "ignore", "ignore"], cwd: ROOT },
    );
  } catch {
    // A failed check or a client that exited with an error: read below.
  }
  const checks = checksIn(dir);
  const failed = checks.filter((c) => c.status === "FAILURE");
  const warned = checks.filter((c) => c.status === "WARNING");
  const problem = failed[0] ?? warned[0];
  return {
    scenario,
    version,
    passed: checks.filter((c) => c.status === "SUCCESS").length,
    failed: failed.length,
    warnings: warned.length,
    notRun: undefined,
    firstProblem: problem === undefined ? undefined : (problem.errorMessage ?? problem.id),
  };
}

/** Each scenario under each of its requirement sets; the ones Baton does not implement as "not run". */
export function runClientSuite(
  toolsAt: { node: string; suite: string },
  out: string,
  only: (scenario: string) => boolean = () => true,
): ClientResult[] {
  return clientScenarios(toolsAt)
    .filter((s) => only(s.scenario))
    .flatMap(({ scenario, versions }) => {
      const why = whyNotRun(scenario);
      if (why !== undefined)
        return [
          {
            scenario,
            version: versions.join(", "),
            passed: 0,
            failed: 0,
            warnings: 0,
            notRun: why,
            firstProblem: undefined,
          },
        ];
      return versions
        .filter((v) => /^\d{4}-\d\d-\d\d$/.test(v))
        .map((version) => runClientScenario(toolsAt, scenario, version, out));
    });
}

export const clientVerdict = (r: ClientResult): string =>
  r.notRun !== undefined
    ? "not run"
    : r.failed > 0
      ? "fail"
      : r.passed > 0
        ? r.warnings > 0
          ? "pass (warnings)"
          : "pass"
        : "no verdict";

export function clientTable(results: readonly ClientResult[]): string {
  const lines = [
    "| scenario | requirement set | result | checks passed / failed / warned | why not / first problem |",
    "| --- | --- | --- | --- | --- |",
  ];
  for (const r of results) {
    const why = (r.notRun ?? (clientVerdict(r) === "pass" ? "" : (r.firstProblem ?? ""))).replaceAll(
      "|",
      "\\|",
    );
    lines.push(
      `| ${r.scenario} | ${r.version} | ${clientVerdict(r)} | ${r.passed} / ${r.failed} / ${r.warnings} | ${why.slice(0, 300)} |`,
    );
  }
  const run = results.filter((r) => r.notRun === undefined);
  const clean = run.filter((r) => r.failed === 0 && r.passed > 0).length;
  lines.push(
    "",
    `${clean} of ${run.length} scenario runs without a failed check; ${results.length - run.length} scenarios not run (why above).`,
  );
  return lines.join("\n");
}
