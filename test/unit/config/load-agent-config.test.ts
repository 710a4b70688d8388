import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AgentTool } from "../../../src/agents/agent-tool.js";
import { LONG_RUNNING_NOTE } from "../../../src/agents/builtin-declarations.js";
import type { AgentCallback, BeforeModelCallback } from "../../../src/agents/callbacks.js";
import { exitLoop } from "../../../src/agents/exit-loop-tool.js";
import { functionTool } from "../../../src/agents/function-tool.js";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import { LoopAgent } from "../../../src/agents/loop-agent.js";
import { ParallelAgent } from "../../../src/agents/parallel-agent.js";
import { functionToolsOf } from "../../../src/agents/request-tool.js";
import { SequentialAgent } from "../../../src/agents/sequential-agent.js";
import type { AgentConfigRegistry } from "../../../src/config/agent-config-registry.js";
import { BUILT_IN_TOOLS } from "../../../src/config/config-tools.js";
import { loadAgentConfig } from "../../../src/config/load-agent-config.js";
import { readAgentConfigDir } from "../../../src/config/read-config-dir.js";
import { harness } from "../support/harness.js";
import { texts } from "../support/run-helpers.js";
import { scriptedModel } from "../support/scripted-model.js";

const lookup = functionTool({
  name: "lookup_invoice",
  description: "Finds an invoice",
  parameters: z.object({ number: z.string() }),
  execute: ({ number }) => ({ number, status: "paid" }),
});
const greet: AgentCallback = () => undefined;
const audit: AgentCallback = () => undefined;
const redact: BeforeModelCallback = () => undefined;
const registry: AgentConfigRegistry = {
  tools: { "helpdesk.tools.lookup_invoice": lookup },
  agentCallbacks: { "helpdesk.callbacks.greet": greet, "helpdesk.callbacks.audit": audit },
  beforeModel: { "helpdesk.callbacks.redact": redact },
};

const ROOT = `
agent_class: LlmAgent
name: concierge
model: gemini-2.5-flash
description: Routes questions.
instruction: |
  Route the user.
sub_agents:
  - config_path: team/billing_agent.yaml
  - config_path: ./team/pipeline.yaml
before_agent_callbacks:
  - name: helpdesk.callbacks.greet
  - name: helpdesk.callbacks.audit
before_model_callbacks:
  - name: helpdesk.callbacks.redact
`;
const BILLING = `
name: billing
model: openai:gpt-4.1-mini
description: Invoices and refunds
instruction: Answer billing questions.
disallow_transfer_to_parent: true
disallow_transfer_to_peers: true
output_key: billing_answer
include_contents: none
generate_content_config:
  temperature: 0.2
  top_p: 0.9
  max_output_tokens: 256
  stop_sequences: [END]
tools:
  - name: helpdesk.tools.lookup_invoice
  - name: LongRunningFunctionTool
    args: {func: helpdesk.tools.lookup_invoice}
  - name: AgentTool
    args:
      agent: {config_path: ../helpers/summarizer.yaml}
      skip_summarization: true
  - name: exit_loop
`;
const PIPELINE = `
agent_class: SequentialAgent
name: pipeline
description: Drafts then refines.
sub_agents:
  - config_path: fan_out.yaml
  - config_path: refine.yaml
`;
const FAN_OUT = `
agent_class: google.adk.agents.ParallelAgent
name: fan_out
sub_agents: [{config_path: ../helpers/summarizer_b.yaml}]
`;
const REFINE = `
agent_class: LoopAgent
name: refine
max_iterations: 3
after_agent_callbacks: [{name: helpdesk.callbacks.audit}]
`;
const summarizer = (name: string) => `name: ${name}\nmodel: gemini-2.5-flash\ninstruction: Summarise.\n`;

const FILES = {
  "root_agent.yaml": ROOT,
  "team/billing_agent.yaml": BILLING,
  "team/pipeline.yaml": PIPELINE,
  "team/fan_out.yaml": FAN_OUT,
  "team/refine.yaml": REFINE,
  "helpers/summarizer.yaml": summarizer("summarizer"),
  "helpers/summarizer_b.yaml": summarizer("summarizer_b"),
};

const load = (files: Record<string, string>, root?: string) =>
  loadAgentConfig({ files, registry, ...(root === undefined ? {} : { root }) });

/** The error message `load` throws for `files`. */
function failure(files: Record<string, string>): string {
  try {
    load(files);
  } catch (error) {
    expect(error).toHaveProperty("name", "AgentConfigError");
    return error instanceof Error ? error.message : String(error);
  }
  throw new Error("the config loaded");
}

describe("loadAgentConfig: the mapping", () => {
  const root = load(FILES);

  it("builds the root LlmAgent with its sub-agents in config_path order, paths relative to the referencing file", () => {
    expect(root).toBeInstanceOf(LlmAgent);
    expect(root.name).toBe("concierge");
    expect(root.description).toBe("Routes questions.");
    expect(root.subAgents.map((a) => a.name)).toEqual(["billing", "pipeline"]);
    const config = root instanceof LlmAgent ? root.config : undefined;
    expect(config?.instruction).toBe("Route the user.\n");
    expect(config?.model).toBe("google:gemini-2.5-flash");
    expect(config?.beforeAgent).toEqual([greet, audit]);
    expect(config?.beforeModel).toEqual([redact]);
  });

  it("maps every LlmAgent field: model, flags, output_key, include_contents, generation config, tools", () => {
    const billing = root.findAgent("billing");
    if (!(billing instanceof LlmAgent)) throw new Error("billing is not an LlmAgent");
    const { config } = billing;
    expect(config.model).toBe("openai:gpt-4.1-mini");
    expect(billing.transferPolicy).toEqual({ disallowTransferToParent: true, disallowTransferToPeers: true });
    expect(config.outputKey).toBe("billing_answer");
    expect(config.includeContents).toBe("none");
    expect(billing.generateContentConfig).toEqual({
      temperature: 0.2,
      topP: 0.9,
      maxOutputTokens: 256,
      stopSequences: ["END"],
    });
    const [plain, pending, asTool, exit] = functionToolsOf(config.tools);
    expect(plain).toBe(lookup);
    expect(pending?.name).toBe("lookup_invoice");
    expect([plain?.isLongRunning, pending?.isLongRunning]).toEqual([false, true]);
    expect(pending?.declaration()).toEqual({
      ...lookup.declaration(),
      description: `${lookup.declaration().description}\n\n${LONG_RUNNING_NOTE}`,
    });
    expect(asTool).toBeInstanceOf(AgentTool);
    expect(asTool instanceof AgentTool && [asTool.agent.name, asTool.skipSummarization]).toEqual([
      "summarizer",
      true,
    ]);
    expect(exit).toBe(exitLoop);
  });

  it("builds the three workflow classes, ADK's qualified class names included", () => {
    const pipeline = root.findAgent("pipeline");
    expect(pipeline).toBeInstanceOf(SequentialAgent);
    expect(pipeline?.description).toBe("Drafts then refines.");
    expect(root.findAgent("fan_out")).toBeInstanceOf(ParallelAgent);
    expect(root.findAgent("fan_out")?.subAgents.map((a) => a.name)).toEqual(["summarizer_b"]);
    const refine = root.findAgent("refine");
    expect(refine).toBeInstanceOf(LoopAgent);
    expect(refine instanceof LoopAgent && refine.maxIterations).toBe(3);
  });

  it("reads a file without agent_class as an LlmAgent and maps model names through the app's function", () => {
    const agent = loadAgentConfig({
      files: { "a/root.yaml": "name: solo\nmodel: tiny\n" },
      root: "a/root.yaml",
      model: (name) => `demo:${name}`,
    });
    expect(agent instanceof LlmAgent && agent.config.model).toBe("demo:tiny");
  });

  it("runs a turn through the loaded tree: the root transfers and the YAML sub-agent answers", async () => {
    const models = {
      root: scriptedModel([{ calls: [{ name: "transfer_to_agent", args: { agent_name: "helper" } }] }]),
      helper: scriptedModel([{ text: "helped" }]),
    };
    const agent = loadAgentConfig({
      files: {
        "root_agent.yaml": "name: root\nmodel: root\nsub_agents: [{config_path: helper.yaml}]\n",
        "helper.yaml": "name: helper\nmodel: helper\ndescription: Helps.\n",
      },
      model: (name) => (name === "root" ? models.root : models.helper),
    });
    const h = await harness(agent);
    const events = await h.turn("help me");
    expect(events.map((e) => e.author)).toEqual(["root", "root", "helper"]);
    expect(events[1]?.actions.transferToAgent).toBe("helper");
    expect(texts(events)[2]).toBe("helped");
  });

  it("reads a directory into the path → text map, with / separators", () => {
    const dir = mkdtempSync(join(tmpdir(), "baton-config-"));
    try {
      for (const [path, text] of Object.entries(FILES)) {
        mkdirSync(join(dir, path, ".."), { recursive: true });
        writeFileSync(join(dir, path), text);
      }
      writeFileSync(join(dir, "notes.txt"), "not config");
      const files = readAgentConfigDir(dir);
      expect(Object.keys(files).sort()).toEqual(Object.keys(FILES).sort());
      expect(load(files).findAgent("refine")).toBeInstanceOf(LoopAgent);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("loadAgentConfig: bad configs name the file, the field and what is accepted", () => {
  it("refuses an unknown field, listing the class's fields", () => {
    const message = failure({ ...FILES, "team/refine.yaml": `${REFINE}sub_agent: []\n` });
    expect(message).toContain(
      'team/refine.yaml: sub_agent: unknown field "sub_agent"; accepted: agent_class, name,',
    );
    expect(message).toContain("max_iterations");
  });

  it("refuses a field of another class (max_iterations on an LlmAgent)", () => {
    const message = failure({ "root_agent.yaml": "name: a\nmax_iterations: 2\n" });
    expect(message).toMatch(
      /^root_agent\.yaml: max_iterations: unknown field "max_iterations"; accepted: .*output_key/,
    );
  });

  it("refuses an unknown field inside a tool's args and a sub_agents reference by code", () => {
    const badArgs = BILLING.replace("skip_summarization: true", "skip_summarisation: true");
    expect(failure({ ...FILES, "team/billing_agent.yaml": badArgs })).toContain(
      'team/billing_agent.yaml: tools[2].args.skip_summarisation: unknown field "skip_summarisation"; accepted: agent, skip_summarization',
    );
    expect(failure({ "root_agent.yaml": "name: a\nsub_agents: [{code: my.agents.x}]\n" })).toContain(
      'root_agent.yaml: sub_agents[0].code: unknown field "code"; accepted: config_path',
    );
  });

  it("refuses an unknown agent class, listing the supported ones", () => {
    expect(failure({ "root_agent.yaml": "agent_class: LangGraphAgent\nname: a\n" })).toBe(
      'root_agent.yaml: agent_class: unknown class "LangGraphAgent"; accepted: LlmAgent, SequentialAgent, ParallelAgent, LoopAgent, Workflow, FunctionNode, ToolNode, JoinNode',
    );
  });

  it("refuses a tool name the registry lacks, listing the built-ins and registered tools", () => {
    const message = failure({ "root_agent.yaml": "name: a\ntools: [{name: web_scraper}]\n" });
    expect(message).toBe(
      `root_agent.yaml: tools[0].name: unknown tool "web_scraper"; accepted: ${BUILT_IN_TOOLS.join(", ")}, helpdesk.tools.lookup_invoice`,
    );
    expect(
      failure({
        "root_agent.yaml": "name: a\ntools: [{name: LongRunningFunctionTool, args: {func: x.y}}]\n",
      }),
    ).toContain('root_agent.yaml: tools[0].args.func: unknown tool "x.y"');
  });

  it("refuses a callback name the registry lacks, naming the registered ones of that kind", () => {
    expect(failure({ "root_agent.yaml": "name: a\nafter_model_callbacks: [{name: cb.missing}]\n" })).toBe(
      'root_agent.yaml: after_model_callbacks[0].name: no callback "cb.missing" in the registry\'s afterModel; registered: (none)',
    );
    expect(failure({ "root_agent.yaml": "name: a\nbefore_agent_callbacks: [{name: cb.x}]\n" })).toContain(
      "registered: helpdesk.callbacks.greet, helpdesk.callbacks.audit",
    );
  });

  it("refuses a config_path whose file is missing, naming the resolved path and the files", () => {
    const { "team/fan_out.yaml": _dropped, ...files } = FILES;
    expect(failure(files)).toMatch(
      /^team\/pipeline\.yaml: sub_agents\[0\]\.config_path: no config file "team\/fan_out\.yaml"; the files are: root_agent\.yaml, /,
    );
    expect(failure({ "other.yaml": "name: a\n" })).toContain("root_agent.yaml: no such config file");
  });

  it("refuses a cycle of config_path references, showing the chain", () => {
    expect(
      failure({
        "root_agent.yaml": "name: a\nsub_agents: [{config_path: b.yaml}]\n",
        "b.yaml": "name: b\nsub_agents: [{config_path: ./root_agent.yaml}]\n",
      }),
    ).toBe("Agent config cycle: root_agent.yaml → b.yaml → root_agent.yaml");
  });

  it("refuses absolute paths and paths that climb above the files' root", () => {
    expect(
      failure({ "root_agent.yaml": "name: a\nsub_agents: [{config_path: /etc/agent.yaml}]\n" }),
    ).toContain("root_agent.yaml: sub_agents[0].config_path: absolute paths are not allowed");
    expect(failure({ "root_agent.yaml": "name: a\nsub_agents: [{config_path: ../x.yaml}]\n" })).toContain(
      'root_agent.yaml: sub_agents[0].config_path: "../x.yaml" resolves outside',
    );
  });

  it("refuses generation settings Baton does not send, and wrong value types", () => {
    expect(
      failure({
        "root_agent.yaml": "name: a\ngenerate_content_config: {temperature: 0.1, safety_settings: []}\n",
      }),
    ).toMatch(
      /^root_agent\.yaml: generate_content_config\.safety_settings: unknown field "safety_settings"; accepted: temperature, top_p, top_k, max_output_tokens/,
    );
    expect(failure({ "root_agent.yaml": "name: a\ndisallow_transfer_to_parent: 'yes'\n" })).toMatch(
      /^root_agent\.yaml: disallow_transfer_to_parent: Invalid input: expected boolean/,
    );
    expect(failure({ "root_agent.yaml": "name: a\ninclude_contents: some\n" })).toContain(
      'root_agent.yaml: include_contents: Invalid option: expected one of "default"|"none"',
    );
  });

  it("refuses invalid YAML, a non-mapping and an agent name Baton cannot use", () => {
    expect(failure({ "root_agent.yaml": "name: [unclosed\n" })).toContain("root_agent.yaml: not valid YAML");
    expect(failure({ "root_agent.yaml": "- name: a\n" })).toBe(
      "root_agent.yaml: an agent config must be a mapping",
    );
    expect(failure({ "root_agent.yaml": "name: not-an-identifier\n" })).toContain(
      'root_agent.yaml: Agent name "not-an-identifier" must be an identifier',
    );
  });
});
