import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { evalCommand } from "../../../src/cli/eval-command.js";
import { loadModule, settings } from "../../../src/cli/load-app.js";

const ROOT = join(import.meta.dirname, "../../..");
const work = mkdtempSync(join(tmpdir(), "baton-eval-cli-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));
afterEach(() => vi.restoreAllMocks());

/** `baton-eval <args>` in this checkout, with the demo's apps as the default module; its code and output. */
async function evalRun(...args: string[]): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(console, "log").mockImplementation((line: unknown) => void out.push(String(line)));
  vi.spyOn(console, "error").mockImplementation((line: unknown) => void err.push(String(line)));
  const code = await evalCommand(args, {
    command: "baton-eval",
    defaultModule: "src/demo/app.ts",
    cwd: ROOT,
    typescript: "ambient",
  });
  vi.restoreAllMocks();
  return { code, out: out.join("\n"), err: err.join("\n") };
}

/** A folder holding the demo's eval set, and a copy of it whose refund case expects no tool call. */
function setsFolder(name: string, withFailing: boolean): string {
  const dir = join(work, name);
  const text = readFileSync(join(ROOT, "evals/demo.evalset.json"), "utf8");
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(join(dir, "nested"), { recursive: true });
  writeFileSync(join(dir, "demo.evalset.json"), text);
  writeFileSync(join(dir, "notes.json"), "{}");
  if (withFailing) {
    const set = JSON.parse(text);
    set.eval_set_id = "edited";
    for (const c of set.eval_cases)
      if (c.eval_id === "refund") for (const inv of c.conversation) inv.intermediate_data.tool_uses = [];
    writeFileSync(join(dir, "nested/edited.evalset.json"), JSON.stringify(set));
  }
  return dir;
}

describe("baton-eval", { timeout: 60_000 }, () => {
  it("runs every *.evalset.json under a folder, and exits 1 when a case of any of them fails", async () => {
    const passing = await evalRun("demo", setsFolder("passing", false));
    expect(passing.out).toContain("eval set demo: 3 of 3 cases passed");
    expect(passing.code).toBe(0);

    const failing = await evalRun("demo", setsFolder("failing", true));
    expect(failing.out).toContain("eval set demo: 3 of 3 cases passed");
    expect(failing.out).toContain("eval set edited: 2 of 3 cases passed");
    expect(failing.code).toBe(1);
  });

  it("exits 2 with a sentence for a folder without eval sets or a missing file", async () => {
    const empty = join(work, "empty");
    mkdirSync(empty, { recursive: true });
    expect(await evalRun("demo", empty)).toMatchObject({
      code: 2,
      err: `No *.evalset.json file under ${empty}`,
    });
    expect(await evalRun("demo", "evals/none.evalset.json")).toMatchObject({
      code: 2,
      err: "No such eval set file: evals/none.evalset.json",
    });
  });

  it("takes the module's one app and its `models` export", async () => {
    const loaded = await loadModule("test/unit/cli/fixtures/app-with-models.ts", ROOT, "ambient");
    expect(loaded.apps.map((app) => app.name)).toEqual(["helpdesk"]);
    expect(loaded.models.map((provider) => provider.name)).toEqual(["fixture"]);
  });

  it.skipIf(Reflect.get(process.features, "typescript"))(
    "refuses a TypeScript module in a project without tsx, saying what to install",
    async () => {
      writeFileSync(join(work, "app.ts"), "export const x: number = 1;\n");
      await expect(loadModule("app.ts", work, "register")).rejects.toThrow(
        "app.ts is TypeScript: install tsx (npm install --save-dev tsx) to run it.",
      );
    },
  );

  it("reads model keys from .dev.vars, with the environment's value first", () => {
    const dir = join(work, "vars");
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, ".dev.vars"), 'FIXTURE_ONLY_IN_FILE=from-file\nFIXTURE_IN_BOTH="from file"\n');
    vi.stubEnv("FIXTURE_IN_BOTH", "from-env");
    const env = settings(dir);
    expect(env.FIXTURE_ONLY_IN_FILE).toBe("from-file");
    expect(env.FIXTURE_IN_BOTH).toBe("from-env");
    vi.unstubAllEnvs();
    expect(settings(work).FIXTURE_ONLY_IN_FILE).toBeUndefined();
  });
});
