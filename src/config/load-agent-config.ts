import { parse } from "yaml";
import type { z } from "zod";
import { BaseAgent, type BaseAgentConfig } from "../agents/base-agent.js";
import { LlmAgent, type LlmAgentConfig } from "../agents/llm-agent.js";
import { LoopAgent } from "../agents/loop-agent.js";
import { ParallelAgent } from "../agents/parallel-agent.js";
import { SequentialAgent } from "../agents/sequential-agent.js";
import type { ModelSpec } from "../core/ports.js";
import type { WorkflowNode } from "../workflow/node.js";
import type { AgentConfigRegistry, LoadAgentConfigOptions } from "./agent-config-registry.js";
import {
  AGENT_CLASSES,
  agentClassOf,
  bareClass,
  LlmAgentConfigSchema,
  type LlmAgentYaml,
  LoopAgentConfigSchema,
  NODE_CLASSES,
  WorkflowAgentConfigSchema,
  type WorkflowAgentYaml,
  WorkflowConfigSchema,
} from "./agent-config-schema.js";
import { type CallbackField, type CallbackKind, resolveCallbacks } from "./config-callbacks.js";
import { AgentConfigError, configMessage, issueLines } from "./config-error.js";
import { canonicalPath, resolveConfigPath } from "./config-path.js";
import { resolveCodeExecutor, resolveTool, type ToolScope } from "./config-tools.js";
import { nodeFromConfig, workflowFromConfig } from "./config-workflow.js";
import { generateContentConfig } from "./generate-content-config.js";

/** ADK reads a bare model name as Gemini; Baton's own `provider:model` strings pass as they are. */
const defaultModel = (name: string): ModelSpec => (name.includes(":") ? name : `google:${name}`);

/** `raw` checked against `schema`; every problem in one error, one line each. */
function validated<S extends z.ZodType>(schema: S, raw: unknown, file: string): z.infer<S> {
  const parsed = schema.safeParse(raw);
  if (!parsed.success) throw new AgentConfigError(issueLines(file, schema, parsed.error).join("\n"));
  return parsed.data;
}

const isMapping = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** Builds one tree; `stack` holds the files being built, so a reference back into it is a cycle. */
class TreeBuilder {
  readonly #files: ReadonlyMap<string, string>;
  readonly #registry: AgentConfigRegistry;
  readonly #model: (name: string) => ModelSpec;

  constructor(options: LoadAgentConfigOptions) {
    this.#files = new Map(Object.entries(options.files).map(([path, text]) => [canonicalPath(path), text]));
    this.#registry = options.registry ?? {};
    this.#model = options.model ?? defaultModel;
  }

  /** The agent `ref` names from `from` (`field` locates the reference for errors). */
  agentAt(from: string, ref: string, field: string, stack: readonly string[]): BaseAgent {
    const built = this.fileAt(from, ref, field, stack);
    if (built instanceof BaseAgent) return built;
    throw new AgentConfigError(configMessage(from, field, `"${ref}" is a workflow node, not an agent`));
  }

  /** The agent or workflow node the config file `ref` names from `from`. */
  fileAt(from: string, ref: string, field: string, stack: readonly string[]): BaseAgent | WorkflowNode {
    const resolved = resolveConfigPath(from, ref);
    if ("problem" in resolved) throw new AgentConfigError(configMessage(from, field, resolved.problem));
    if (!this.#files.has(resolved.path)) {
      const known = [...this.#files.keys()].join(", ");
      throw new AgentConfigError(
        configMessage(from, field, `no config file "${resolved.path}"; the files are: ${known}`),
      );
    }
    return this.build(resolved.path, stack);
  }

  build(file: string, stack: readonly string[]): BaseAgent | WorkflowNode {
    if (stack.includes(file)) {
      throw new AgentConfigError(`Agent config cycle: ${[...stack, file].join(" → ")}`);
    }
    const text = this.#files.get(file);
    if (text === undefined) {
      throw new AgentConfigError(
        `${file}: no such config file; the files are: ${[...this.#files.keys()].join(", ")}`,
      );
    }
    let raw: unknown;
    try {
      raw = parse(text);
    } catch (error) {
      throw new AgentConfigError(configMessage(file, "", `not valid YAML: ${String(error)}`));
    }
    if (!isMapping(raw))
      throw new AgentConfigError(configMessage(file, "", "an agent config must be a mapping"));
    const named = typeof raw.agent_class === "string" ? raw.agent_class : undefined;
    const nodeClass = NODE_CLASSES.find((c) => named !== undefined && bareClass(named) === c);
    const agentClass = agentClassOf(named);
    if (agentClass === undefined && nodeClass === undefined) {
      throw new AgentConfigError(
        configMessage(
          file,
          "agent_class",
          `unknown class ${JSON.stringify(raw.agent_class)}; accepted: ${[...AGENT_CLASSES, ...NODE_CLASSES].join(", ")}`,
        ),
      );
    }
    const inner = [...stack, file];
    try {
      if (nodeClass !== undefined) {
        if (stack.length === 0)
          throw new AgentConfigError(
            configMessage(file, "agent_class", `a ${nodeClass} is a workflow's node, not a root agent`),
          );
        return nodeFromConfig(nodeClass, raw, file, this.#registry, validated);
      }
      if (agentClass === "Workflow") {
        const config = validated(WorkflowConfigSchema, raw, file);
        const { edges: _edges, max_concurrency: _max, ...fields } = config;
        const base = this.#base(fields, file, inner);
        return workflowFromConfig(config, base, {
          file,
          registry: this.#registry,
          fileAt: (ref, field) => this.fileAt(file, ref, field, inner),
        });
      }
      if (agentClass === "LlmAgent") {
        const config = validated(LlmAgentConfigSchema, raw, file);
        return this.#llmAgent(this.#base(config, file, inner), config, file, inner);
      }
      if (agentClass === "LoopAgent") {
        const config = validated(LoopAgentConfigSchema, raw, file);
        const max = config.max_iterations;
        return new LoopAgent({
          ...this.#base(config, file, inner),
          ...(max === undefined ? {} : { maxIterations: max }),
        });
      }
      const base = this.#base(validated(WorkflowAgentConfigSchema, raw, file), file, inner);
      return agentClass === "SequentialAgent" ? new SequentialAgent(base) : new ParallelAgent(base);
    } catch (error) {
      if (error instanceof AgentConfigError) throw error;
      // The agent constructors' own checks (names, maxIterations, generation settings).
      throw new AgentConfigError(
        configMessage(file, "", error instanceof Error ? error.message : String(error)),
      );
    }
  }

  #base(config: WorkflowAgentYaml, file: string, stack: readonly string[]): BaseAgentConfig {
    const callbacks = (field: "before_agent_callbacks" | "after_agent_callbacks") =>
      resolveCallbacks(this.#registry.agentCallbacks, "agentCallbacks", config[field], file, field);
    const beforeAgent = callbacks("before_agent_callbacks");
    const afterAgent = callbacks("after_agent_callbacks");
    return {
      name: config.name,
      ...(config.description === undefined ? {} : { description: config.description }),
      subAgents: (config.sub_agents ?? []).map((ref, i) =>
        this.agentAt(file, ref.config_path, `sub_agents[${i}].config_path`, stack),
      ),
      ...(beforeAgent === undefined ? {} : { beforeAgent }),
      ...(afterAgent === undefined ? {} : { afterAgent }),
    };
  }

  #llmAgent(base: BaseAgentConfig, config: LlmAgentYaml, file: string, stack: readonly string[]): LlmAgent {
    const scope: ToolScope = {
      registry: this.#registry,
      file,
      agentAt: (ref, field) => this.agentAt(file, ref, field, stack),
    };
    const registry = this.#registry;
    const agent: LlmAgentConfig = { ...base };
    if (config.model !== undefined) agent.model = this.#model(config.model);
    if (config.instruction !== undefined) agent.instruction = config.instruction;
    if (config.disallow_transfer_to_parent !== undefined)
      agent.disallowTransferToParent = config.disallow_transfer_to_parent;
    if (config.disallow_transfer_to_peers !== undefined)
      agent.disallowTransferToPeers = config.disallow_transfer_to_peers;
    if (config.output_key !== undefined) agent.outputKey = config.output_key;
    if (config.include_contents !== undefined) agent.includeContents = config.include_contents;
    if (config.generate_content_config !== undefined)
      agent.generateContentConfig = generateContentConfig(config.generate_content_config, file);
    if (config.tools !== undefined) agent.tools = config.tools.map((tool, i) => resolveTool(tool, i, scope));
    if (config.code_executor !== undefined)
      agent.codeExecutor = resolveCodeExecutor(config.code_executor, file);
    if (config.mode !== undefined) agent.mode = config.mode;
    const callbacks = <T>(
      known: Readonly<Record<string, T>> | undefined,
      kind: CallbackKind,
      field: CallbackField,
    ) => resolveCallbacks(known, kind, config[field], file, field);
    const beforeModel = callbacks(registry.beforeModel, "beforeModel", "before_model_callbacks");
    if (beforeModel !== undefined) agent.beforeModel = beforeModel;
    const afterModel = callbacks(registry.afterModel, "afterModel", "after_model_callbacks");
    if (afterModel !== undefined) agent.afterModel = afterModel;
    const beforeTool = callbacks(registry.beforeTool, "beforeTool", "before_tool_callbacks");
    if (beforeTool !== undefined) agent.beforeTool = beforeTool;
    const afterTool = callbacks(registry.afterTool, "afterTool", "after_tool_callbacks");
    if (afterTool !== undefined) agent.afterTool = afterTool;
    const built = new LlmAgent(agent);
    this.llmAgents.push({ agent: built, file });
    return built;
  }

  /** Every LlmAgent built, with its file, for the checks that need the whole tree (inherited models). */
  readonly llmAgents: { agent: LlmAgent; file: string }[] = [];
}

/**
 * Builds an agent tree from ADK Agent Config YAML (`root_agent.yaml` and the files its `sub_agents` and
 * `AgentTool`s name by `config_path`): `LlmAgent`, `SequentialAgent`, `ParallelAgent` and `LoopAgent`.
 * Tools and callbacks are looked up by name in `registry`. The files come as a map of path → YAML text,
 * never from disk: on Workers they are bundled at build time (wrangler `Text` modules); in Node,
 * `readAgentConfigDir` reads a directory into the map. Anything unknown (a field, a class, a tool or
 * callback name, a missing file, a cycle) throws an `AgentConfigError` naming the file, the field and
 * what is accepted.
 * @example
 * import root from "./agents/root_agent.yaml";
 * import billing from "./agents/billing_agent.yaml";
 * const rootAgent = loadAgentConfig({ files: { "root_agent.yaml": root, "billing_agent.yaml": billing },
 *   registry: { tools: { "helpdesk.tools.lookup_invoice": lookupInvoice } } });
 */
export function loadAgentConfig(options: LoadAgentConfigOptions): BaseAgent {
  const builder = new TreeBuilder(options);
  const rootFile = canonicalPath(options.root ?? "root_agent.yaml");
  const root = builder.build(rootFile, []);
  if (!(root instanceof BaseAgent))
    throw new AgentConfigError(
      configMessage(rootFile, "agent_class", "the root must be an agent or a workflow"),
    );
  // Gemini's built-in tools need a Gemini model, which may be inherited: checked once the tree stands.
  for (const { agent, file } of builder.llmAgents) {
    try {
      agent.checkToolModels();
    } catch (error) {
      throw new AgentConfigError(
        configMessage(file, "tools", error instanceof Error ? error.message : String(error)),
      );
    }
  }
  return root;
}
