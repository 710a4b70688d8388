import { execFile } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { CONFORMANCE_DIR, skipReason } from "../../scripts/conformance/data-dir.js";

/*
 * `npm run conformance` as a user runs it: a child process that starts `wrangler dev` on the replay
 * Worker and plays cases over HTTP. Two runs (one wrangler start each) keep it inside npm test's budget.
 */

const ROOT = join(import.meta.dirname, "../..");
const skipped = skipReason();
const RUN_TIMEOUT_MS = 180_000;

interface Outcome {
  code: number;
  stdout: string;
}

/** `npm run conformance -- <args>` (the script it runs, without npm's banner). */
function conformance(...args: string[]): Promise<Outcome> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      ["--import", "tsx", "scripts/conformance/run.ts", ...args],
      { cwd: ROOT, env: { ...process.env, WRANGLER_SEND_METRICS: "false" }, timeout: RUN_TIMEOUT_MS },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === "number" ? error.code : -1;
        resolve({ code, stdout: `${stdout}${code === 0 ? "" : stderr}` });
      },
    );
  });
}

/** The lines after `<id> fail` up to the next case line. */
const detailOf = (stdout: string, id: string): string =>
  stdout.split(`${id} fail\n`)[1]?.split(/\n(?=\S)/)[0] ?? "(no fail line)";

describe.skipIf(skipped !== undefined)("npm run conformance", () => {
  const scratch = mkdtempSync(join(tmpdir(), "baton-conformance-cmd-"));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it(
    "passes named cases of the shared data over HTTP and exits 0",
    async () => {
      const { code, stdout } = await conformance("core/multi_003", "multi_005");
      expect(stdout).toContain("core/multi_003 pass\ncore/multi_005 pass\n");
      expect(stdout).toMatch(/2 passed, 0 failed \(0 could not be loaded\)/);
      expect(code).toBe(0);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    "fails a case whose recorded expectation was changed, with the first difference, and names what cannot be loaded",
    async () => {
      const cases = join(scratch, "data");
      const tests = join(cases, "tests", "core");
      mkdirSync(tests, { recursive: true });
      cpSync(join(CONFORMANCE_DIR, "agents", "multi_agent_001"), join(cases, "agents", "multi_agent_001"), {
        recursive: true,
      });
      cpSync(join(CONFORMANCE_DIR, "tests", "core", "multi_001"), join(tests, "good_001"), {
        recursive: true,
      });
      // The changed copy: the last answer in generated-session.yaml is not what the recording replays.
      cpSync(join(CONFORMANCE_DIR, "tests", "core", "multi_001"), join(tests, "changed_001"), {
        recursive: true,
      });
      const sessionFile = join(tests, "changed_001", "generated-session.yaml");
      const session = parse(readFileSync(sessionFile, "utf8"));
      const last = session.events.at(-1);
      last.content.parts[0].text = `${last.content.parts[0].text} (changed)`;
      writeFileSync(sessionFile, stringify(session));
      // A case whose agent names a Python tool the TypeScript registry does not have.
      mkdirSync(join(cases, "agents", "tool_app"), { recursive: true });
      writeFileSync(
        join(cases, "agents", "tool_app", "root_agent.yaml"),
        "name: helper\nmodel: gemini-2.5-flash\ntools:\n  - name: tool_app.tools.lookup_weather\n",
      );
      cpSync(join(CONFORMANCE_DIR, "tests", "core", "multi_001"), join(tests, "tool_001"), {
        recursive: true,
      });
      writeFileSync(
        join(tests, "tool_001", "spec.yaml"),
        'description: d\nagent: tool_app\nuser_messages:\n  - text: "hi"\n',
      );

      const { code, stdout } = await conformance("--cases", cases);
      expect(stdout).toContain("core/good_001 pass\n");
      expect(detailOf(stdout, "core/changed_001")).toMatch(
        new RegExp(
          `session\\.events\\[${session.events.length - 1}\\]\\.content\\.parts\\[0\\]\\.text: strings differ`,
        ),
      );
      expect(detailOf(stdout, "core/tool_001")).toContain(
        'could not load: agents/tool_app: root_agent.yaml: tools[0].name: unknown tool "tool_app.tools.lookup_weather"',
      );
      expect(stdout).toMatch(/1 passed, 2 failed \(1 could not be loaded\)/);
      expect(code).toBe(1);
    },
    RUN_TIMEOUT_MS,
  );

  it(
    "exits non-zero naming a case that is not in the data, without starting a server",
    async () => {
      const { code, stdout } = await conformance("core/no_such_case");
      expect(stdout).toContain(
        `core/no_such_case fail\n    could not load: no such case under ${CONFORMANCE_DIR}/tests`,
      );
      expect(code).toBe(1);
    },
    RUN_TIMEOUT_MS,
  );
});
