import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { type CaseFiles, type Recording, readCaseFiles } from "../../scripts/conformance/case-files.js";
import {
  type CaseRef,
  CONFORMANCE_DIR,
  caseNamed,
  discoverCases,
  skipReason,
} from "../../scripts/conformance/data-dir.js";
import { LlmAgent } from "../../src/agents/llm-agent.js";
import { readAgentConfigDir } from "../../src/config/read-config-dir.js";
import { isRecord } from "../../src/replay/genai-keys.js";
import { replayApp } from "../../src/replay/replay-app.js";
import { replayOnlyModel } from "../../src/replay/replay-only-model.js";
import { runCase } from "./run-case.js";

/*
 * The checks must be able to fail: each test corrupts one recorded fact of a named case in memory and
 * expects the run to report exactly that mismatch.
 */

/**
 * The case corrupted: its root offers three targets, its sub-agents' instructions close with the parent
 * sentence, it records a transfer tool call, and a later turn relays another agent's tool call.
 */
const CASE_ID = "core/multi_001";
/** Set when the data is absent and may be (see `skipReason`); the data-bound suites are then skipped. */
const skipped = skipReason();

let loaded: { ref: CaseRef; files: CaseFiles } | undefined;
/** The named case, read once on first use (never at load time, so a skipped run reads nothing). */
function subject(): { ref: CaseRef; files: CaseFiles } {
  if (loaded === undefined) {
    const ref = caseNamed(CASE_ID);
    loaded = { ref, files: readCaseFiles(ref.dir) };
  }
  return loaded;
}
const pristine = (): CaseFiles => subject().files;

/** A fresh deep copy of the case, changed by `corrupt`, then run. */
async function problemsAfter(corrupt: (files: CaseFiles) => void): Promise<string> {
  const files = structuredClone(pristine());
  corrupt(files);
  return (await runCase(subject().ref.dir, files)).problems.join("\n");
}

/** The value at `keys` below `value`, which must be an object or array at every step. */
function at(value: unknown, ...keys: (string | number)[]): Record<string, unknown> {
  let node = value;
  for (const key of keys) node = isRecord(node) || Array.isArray(node) ? Reflect.get(node, key) : undefined;
  if (!isRecord(node)) throw new Error(`no object at ${keys.join(".")}`);
  return node;
}

const llmRecordings = (files: CaseFiles): Recording[] =>
  files.recordings.recordings.filter((r) => r.llm_recording);
const firstLlm = (files: CaseFiles): Recording => {
  const recording = llmRecordings(files)[0];
  if (!recording) throw new Error("the case has no llm_recording");
  return recording;
};
const configOf = (recording: Recording): Record<string, unknown> =>
  at(recording, "llm_recording", "llm_request", "config");
const instructionOf = (recording: Recording): string => String(configOf(recording).system_instruction);
const mismatchIn = (recording: Recording, index = 0): string =>
  `LLM request mismatch in turn ${recording.user_message_index} for agent '${recording.agent_name}' (index ${index})`;

describe.skipIf(skipped !== undefined)(`the replay checks report a corrupted recording of ${CASE_ID}`, () => {
  it("passes the untouched case", async () => {
    expect(await problemsAfter(() => undefined)).toBe("");
  });

  it("reports a transfer_to_agent enum in another order", async () => {
    const problems = await problemsAfter((files) => {
      const declaration = at(configOf(firstLlm(files)), "tools", 0, "function_declarations", 0);
      const agentName = at(declaration, "parameters", "properties", "agent_name");
      agentName.enum = [...(Array.isArray(agentName.enum) ? agentName.enum : [])].reverse();
    });
    expect(problems).toContain(mismatchIn(firstLlm(pristine())));
    expect(problems).toMatch(
      /tools\[0\]\.parameters\.properties\.agent_name\.enum\[0\]: expected "\w+", got "\w+"/,
    );
  });

  it("reports a changed text in the recorded contents", async () => {
    const problems = await problemsAfter((files) => {
      const part = at(firstLlm(files), "llm_recording", "llm_request", "contents", 0, "parts", 0);
      part.text = `${String(part.text)} (changed)`;
    });
    expect(problems).toContain(mismatchIn(firstLlm(pristine())));
    expect(problems).toMatch(/contents\[0\]\.parts\[0\]\.text: expected ".*\(changed\)", got "/);
  });

  it("reports relayed tool arguments written as JSON instead of Python's repr", async () => {
    const relayed = (files: CaseFiles) => {
      for (const recording of llmRecordings(files)) {
        const contents = at(recording, "llm_recording", "llm_request").contents;
        for (const [i, content] of (Array.isArray(contents) ? contents : []).entries()) {
          const parts: unknown = at(content).parts;
          for (const [j, part] of (Array.isArray(parts) ? parts : []).entries()) {
            if (/with parameters: \{'/.test(String(at(part).text)))
              return { recording, i, j, part: at(part) };
          }
        }
      }
      throw new Error("no relayed tool call in the recorded requests");
    };
    const problems = await problemsAfter((files) => {
      const { part } = relayed(files);
      part.text = String(part.text).replace(/\{.*\}$/, (repr) => repr.replaceAll("'", '"'));
    });
    const { recording, i, j } = relayed(pristine());
    expect(problems).toContain(mismatchIn(recording));
    expect(problems).toMatch(
      new RegExp(`contents\\[${i}\\]\\.parts\\[${j}\\]\\.text: strings differ at character \\d+`),
    );
  });

  it("reports transfer targets listed in another order in the system instruction, at the first moved line", async () => {
    const blocks =
      instructionOf(firstLlm(pristine())).match(/Agent name: .*\nAgent description: .*\n/g) ?? [];
    const [a, b] = blocks;
    if (!a || !b) throw new Error(`${CASE_ID}'s first request offers fewer than two targets`);
    const problems = await problemsAfter((files) => {
      const config = configOf(firstLlm(files));
      config.system_instruction = instructionOf(firstLlm(files))
        .replace(a, "\0")
        .replace(b, a)
        .replace("\0", b);
    });
    const line =
      instructionOf(firstLlm(pristine()))
        .split("\n")
        .indexOf(a.split("\n")[0] ?? "") + 1;
    expect(problems).toContain(mismatchIn(firstLlm(pristine())));
    expect(problems).toContain(
      `config.system_instruction differs from the recording at line ${line}: ` +
        `expected ${JSON.stringify(b.split("\n")[0])}, got ${JSON.stringify(a.split("\n")[0])}`,
    );
  });

  it("reports one changed character of the recorded system instruction", async () => {
    const problems = await problemsAfter((files) => {
      const config = configOf(firstLlm(files));
      config.system_instruction = instructionOf(firstLlm(files)).replace(
        "You are an agent.",
        "You are an agent!",
      );
    });
    expect(problems).toContain(mismatchIn(firstLlm(pristine())));
    expect(problems).toMatch(
      /config\.system_instruction differs from the recording at line \d+: expected "You are an agent! /,
    );
  });

  it("reports a parent sentence Baton sends but the recording lacks", async () => {
    const withParent = (files: CaseFiles) => {
      const found = llmRecordings(files).find((r) => /transfer to your parent agent/.test(instructionOf(r)));
      if (!found) throw new Error(`no recorded request of ${CASE_ID} with a parent sentence`);
      return found;
    };
    const problems = await problemsAfter((files) => {
      const recording = withParent(files);
      configOf(recording).system_instruction = instructionOf(recording).replace(
        /\nIf neither you .*\.\n$/,
        "",
      );
    });
    expect(problems).toContain(mismatchIn(withParent(pristine())));
    expect(problems).toMatch(
      /at line \d+: expected \(end of text\), got "If neither you nor the other agents are best for the question, transfer to your parent agent \w+\."/,
    );
  });

  it("reports a recorded generation setting Baton's request lacks", async () => {
    const problems = await problemsAfter((files) => {
      configOf(firstLlm(files)).temperature = 0.9;
    });
    expect(problems).toContain(mismatchIn(firstLlm(pristine())));
    expect(problems).toContain("config.temperature: expected 0.9, got (missing)");
  });

  it("reports a recorded request setting Baton has no field for", async () => {
    const problems = await problemsAfter((files) => {
      configOf(firstLlm(files)).thinking_config = { thinking_budget: 0 };
    });
    expect(problems).toContain(
      "config.thinking_config is recorded, but Baton's LlmRequest has no such setting (unsupported)",
    );
  });

  it("reports a tool call with other arguments", async () => {
    let recorded: Recording | undefined;
    const problems = await problemsAfter((files) => {
      recorded = files.recordings.recordings.find((r) => r.tool_recording);
      const call = at(recorded, "tool_recording", "tool_call");
      call.args = { ...at(call, "args"), agent_name: "nobody" };
    });
    expect(problems).toContain(
      `Tool call mismatch in turn ${recorded?.user_message_index} for agent '${recorded?.agent_name}'`,
    );
    expect(problems).toContain('args.agent_name: expected "nobody"');
  });

  it("reports a model call with no recording left", async () => {
    const last = llmRecordings(pristine()).at(-1);
    const problems = await problemsAfter((files) => {
      files.recordings.recordings.splice(
        files.recordings.recordings.lastIndexOf(llmRecordings(files).at(-1) ?? firstLlm(files)),
        1,
      );
    });
    expect(problems).toContain(
      `Runtime sent more LLM requests than expected for agent '${last?.agent_name}' at user_message_index ${last?.user_message_index}`,
    );
  });

  it("reports recordings left unused", async () => {
    const problems = await problemsAfter((files) => {
      files.recordings.recordings.push(structuredClone(firstLlm(files)));
    });
    expect(problems).toMatch(/1 unused turn \d+ \S+ llm recording\(s\)/);
  });

  it("reports a session event field that differs, with its path", async () => {
    const problems = await problemsAfter((files) => {
      const event = files.session.events.find((e) => isRecord(e.usage_metadata));
      const usage = at(event, "usage_metadata");
      usage.total_token_count = Number(usage.total_token_count) + 1;
    });
    expect(problems).toMatch(/session\.events\[\d+\]\.usageMetadata\.totalTokenCount: expected \d+, got \d+/);
  });

  it("reports a missing session event by count and authors", async () => {
    const problems = await problemsAfter((files) => {
      files.session.events.pop();
    });
    expect(problems).toMatch(/session\.events: expected \d+ events \(.*\), got \d+ \(.*\)/);
  });
});

describe("the conformance data, the replay app and stand-ins fail loudly", () => {
  const scratch = mkdtempSync(join(tmpdir(), "baton-conformance-"));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it.skipIf(skipped !== undefined)(
    "builds the case's app with the product loader, instruction verbatim and config_path resolved",
    () => {
      const name = pristine().spec.agent;
      const app = replayApp({ name, files: readAgentConfigDir(join(CONFORMANCE_DIR, "agents", name)) });
      const sub = app.rootAgent.subAgents[0];
      expect(app.rootAgent).toBeInstanceOf(LlmAgent);
      expect(app.rootAgent instanceof LlmAgent && app.rootAgent.config.instruction).toMatch(/\n$/);
      expect(sub?.parentAgent).toBe(app.rootAgent);
    },
  );

  it("fails with the expected location when the data folder is missing", () => {
    expect(() => discoverCases(join(scratch, "nowhere"))).toThrow(
      /ADK conformance data not found: expected .*nowhere/,
    );
  });

  it("skips the replay for missing data only when BATON_REQUIRE_CONFORMANCE is not 1", () => {
    const nowhere = join(scratch, "nowhere");
    expect(skipReason({}, nowhere)).toMatch(/no conformance data at .*nowhere.*BATON_REQUIRE_CONFORMANCE=1/);
    expect(skipReason({ BATON_REQUIRE_CONFORMANCE: "1" }, nowhere)).toBeUndefined();
  });

  it("names the case it cannot find", () => {
    mkdirSync(join(scratch, "data", "tests", "core", "only_case"), { recursive: true });
    writeFileSync(join(scratch, "data", "tests", "core", "only_case", "spec.yaml"), "");
    expect(() => caseNamed("core/other_case", join(scratch, "data"))).toThrow(
      /conformance case core\/other_case not found under .*data.tests/,
    );
    expect(skipReason({}, join(scratch, "data"))).toBeUndefined();
  });

  it("throws if the stand-in model is ever called", async () => {
    const model = replayOnlyModel("gemini-2.5-flash");
    await expect(model.doGenerate({ prompt: [] })).rejects.toThrow(
      /"gemini-2\.5-flash" was called in replay mode/,
    );
  });
});
