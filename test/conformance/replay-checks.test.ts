import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { loadAgentTree } from "./agent-loader.js";
import { type CaseFiles, type Recording, readCaseFiles } from "./case-files.js";
import { CONFORMANCE_DIR, discoverCases } from "./data-dir.js";
import { isRecord } from "./genai-keys.js";
import { replayOnlyModel } from "./replay-only-model.js";
import { runCase } from "./run-case.js";

/*
 * The checks must be able to fail: each test corrupts one recorded fact of a real case in memory and
 * expects the run to report exactly that mismatch. Corruptions are found generically in the data.
 */

const first = discoverCases()[0];
if (!first) throw new Error("no conformance case to corrupt");
const pristine = readCaseFiles(first.dir);

/** A fresh deep copy of the case, changed by `corrupt`, then run. */
async function problemsAfter(corrupt: (files: CaseFiles) => void): Promise<string> {
  const files = structuredClone(pristine);
  corrupt(files);
  return (await runCase(first?.dir ?? "", files)).problems.join("\n");
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

describe("the replay checks report a corrupted recording", () => {
  it("passes the untouched case", async () => {
    expect(await problemsAfter(() => undefined)).toBe("");
  });

  it("reports a transfer_to_agent enum in another order", async () => {
    const problems = await problemsAfter((files) => {
      const declaration = at(configOf(firstLlm(files)), "tools", 0, "function_declarations", 0);
      const agentName = at(declaration, "parameters", "properties", "agent_name");
      agentName.enum = [...(Array.isArray(agentName.enum) ? agentName.enum : [])].reverse();
    });
    expect(problems).toContain(mismatchIn(firstLlm(pristine)));
    expect(problems).toMatch(
      /tools\[0\]\.parameters\.properties\.agent_name\.enum\[0\]: expected "\w+", got "\w+"/,
    );
  });

  it("reports a changed text in the recorded contents", async () => {
    const problems = await problemsAfter((files) => {
      const part = at(firstLlm(files), "llm_recording", "llm_request", "contents", 0, "parts", 0);
      part.text = `${String(part.text)} (changed)`;
    });
    expect(problems).toContain(mismatchIn(firstLlm(pristine)));
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
    const { recording, i, j } = relayed(pristine);
    expect(problems).toContain(mismatchIn(recording));
    expect(problems).toMatch(
      new RegExp(`contents\\[${i}\\]\\.parts\\[${j}\\]\\.text: strings differ at character \\d+`),
    );
  });

  it("reports transfer targets listed in another order in the system instruction", async () => {
    const problems = await problemsAfter((files) => {
      const config = configOf(firstLlm(files));
      const blocks = instructionOf(firstLlm(files)).match(/Agent name: .*\nAgent description: .*\n/g) ?? [];
      const [a, b] = blocks;
      if (!a || !b) throw new Error("the first request offers fewer than two targets");
      config.system_instruction = instructionOf(firstLlm(files))
        .replace(a, "\0")
        .replace(b, a)
        .replace("\0", b);
    });
    expect(problems).toContain(mismatchIn(firstLlm(pristine)));
    expect(problems).toMatch(/transfer target #\d \S+ .* is missing or out of order/);
  });

  it("reports a parent sentence Baton sends but the recording lacks", async () => {
    const withParent = (files: CaseFiles) => {
      const found = llmRecordings(files).find((r) => /transfer to your parent agent/.test(instructionOf(r)));
      if (!found) throw new Error("no recorded request with a parent sentence");
      return found;
    };
    const problems = await problemsAfter((files) => {
      const recording = withParent(files);
      configOf(recording).system_instruction = instructionOf(recording).replace(
        /\n\nIf neither you .*\./,
        "",
      );
    });
    expect(problems).toContain(mismatchIn(withParent(pristine)));
    expect(problems).toContain("has a parent sentence the recording lacks");
  });

  it("reports a request setting Baton does not send", async () => {
    const problems = await problemsAfter((files) => {
      configOf(firstLlm(files)).temperature = 0.9;
    });
    expect(problems).toContain("config.temperature is recorded, but Baton's LlmRequest has no such setting");
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
    const last = llmRecordings(pristine).at(-1);
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

describe("the conformance loader and stand-ins fail loudly", () => {
  const scratch = mkdtempSync(join(tmpdir(), "baton-conformance-"));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));
  const noCallbacks = { beforeModel: () => undefined, beforeTool: () => undefined };

  it("refuses an agent YAML key it does not map to Baton", () => {
    mkdirSync(join(scratch, "agents", "app1"), { recursive: true });
    writeFileSync(
      join(scratch, "agents", "app1", "root_agent.yaml"),
      "name: a\nmodel: m\ntools:\n  - name: t\n",
    );
    expect(() => loadAgentTree(scratch, "app1", noCallbacks)).toThrow(
      /unsupported agent config key\(s\) tools/,
    );
  });

  it("refuses a non-LlmAgent agent class", () => {
    mkdirSync(join(scratch, "agents", "app2"), { recursive: true });
    writeFileSync(join(scratch, "agents", "app2", "root_agent.yaml"), "agent_class: LoopAgent\nname: a\n");
    expect(() => loadAgentTree(scratch, "app2", noCallbacks)).toThrow(
      /agent_class LoopAgent is not supported/,
    );
  });

  it("keeps the YAML instruction verbatim and resolves config_path relative to the file", () => {
    const root = loadAgentTree(CONFORMANCE_DIR, pristine.spec.agent, noCallbacks);
    const sub = root.subAgents[0];
    expect(root.config.instruction).toMatch(/\n$/);
    expect(sub?.parentAgent).toBe(root);
  });

  it("fails with the expected location when the data folder is missing", () => {
    expect(() => discoverCases(join(scratch, "nowhere"))).toThrow(
      /ADK conformance data not found: expected .*nowhere/,
    );
  });

  it("throws if the stand-in model is ever called", async () => {
    const model = replayOnlyModel("gemini-2.5-flash");
    await expect(model.doGenerate({ prompt: [] })).rejects.toThrow(
      /"gemini-2\.5-flash" was called in replay mode/,
    );
  });
});
