import * as z from "zod";

/*
 * ADK's Agent Config YAML (`AgentConfig`, adk-python `agents/*_config.py`), the fields Baton maps, in
 * ADK's snake_case. Every object is strict, as ADK's pydantic models are (`extra="forbid"`): an unknown
 * key is an error naming it, never a silently dropped setting.
 */

/** A callback by name (ADK `CodeConfig`); Baton looks the name up in the app's registry. */
export const CallbackRefSchema = z.strictObject({ name: z.string().min(1) });

/** A sub-agent or an `AgentTool`'s agent (ADK `AgentRefConfig`); only `config_path` is supported. */
export const AgentRefSchema = z.strictObject({ config_path: z.string().min(1) });

/** One entry of `tools` (ADK `ToolConfig`): a name and, for the classes that take them, `args`. */
export const ToolConfigSchema = z.strictObject({
  name: z.string().min(1),
  args: z.record(z.string(), z.unknown()).optional(),
});

/** `AgentTool`'s `args` (ADK `AgentToolConfig`). */
export const AgentToolArgsSchema = z.strictObject({
  agent: AgentRefSchema,
  skip_summarization: z.boolean().optional(),
});

/**
 * `ExampleTool`'s `args` (ADK `ExampleToolConfig`): the examples (`{input: Content, output: [Content]}`), or
 * the name of a registered examples provider.
 */
export const ExampleToolArgsSchema = z.strictObject({
  examples: z.union([z.array(z.unknown()), z.string().min(1)]),
});

/** `code_executor` (ADK `CodeConfig`): Gemini's built-in executor is the only one Baton can run. */
export const CodeExecutorSchema = z.strictObject({
  name: z.string().min(1),
  args: z.array(z.unknown()).optional(),
});

/** `LongRunningFunctionTool`'s `args`: the registered function tool it wraps. */
export const LongRunningArgsSchema = z.strictObject({ func: z.string().min(1) });

const callbacks = z.array(CallbackRefSchema).optional();

/** Fields every agent class takes (ADK `BaseAgentConfig`). */
const baseFields = {
  agent_class: z.string().optional(),
  name: z.string(),
  description: z.string().optional(),
  sub_agents: z.array(AgentRefSchema).optional(),
  before_agent_callbacks: callbacks,
  after_agent_callbacks: callbacks,
};

/** ADK `LlmAgentConfig` (the class when `agent_class` is absent). */
export const LlmAgentConfigSchema = z.strictObject({
  ...baseFields,
  model: z.string().min(1).optional(),
  instruction: z.string().optional(),
  disallow_transfer_to_parent: z.boolean().optional(),
  disallow_transfer_to_peers: z.boolean().optional(),
  output_key: z.string().min(1).optional(),
  include_contents: z.enum(["default", "none"]).optional(),
  tools: z.array(ToolConfigSchema).optional(),
  code_executor: CodeExecutorSchema.optional(),
  generate_content_config: z.record(z.string(), z.unknown()).optional(),
  /** ADK 2.x delegation mode: `task` and `single_turn` end with `finish_task`. */
  mode: z.enum(["chat", "task", "single_turn"]).optional(),
  before_model_callbacks: callbacks,
  after_model_callbacks: callbacks,
  before_tool_callbacks: callbacks,
  after_tool_callbacks: callbacks,
});
export type LlmAgentYaml = z.infer<typeof LlmAgentConfigSchema>;

/** ADK `SequentialAgentConfig` and `ParallelAgentConfig`: the base fields only. */
export const WorkflowAgentConfigSchema = z.strictObject(baseFields);
export type WorkflowAgentYaml = z.infer<typeof WorkflowAgentConfigSchema>;

/** ADK `LoopAgentConfig`. */
export const LoopAgentConfigSchema = z.strictObject({
  ...baseFields,
  max_iterations: z.number().int().nonnegative().optional(),
});
export type LoopAgentYaml = z.infer<typeof LoopAgentConfigSchema>;

/** ADK 2.x `RetryConfig` of a node, in snake_case. */
export const RetryConfigSchema = z.strictObject({
  max_attempts: z.number().int().nonnegative().optional(),
  initial_delay: z.number().nonnegative().optional(),
  max_delay: z.number().nonnegative().optional(),
  backoff_factor: z.number().nonnegative().optional(),
  jitter: z.number().nonnegative().optional(),
  exceptions: z.array(z.string().min(1)).optional(),
});

/** An element of an edge chain: a node reference, a fan-out list, or a routing map `{route: ref}`. */
const ChainElementSchema = z.union([
  z.string().min(1),
  z.array(z.string().min(1)),
  z.record(z.string(), z.union([z.string().min(1), z.array(z.string().min(1))])),
]);

/** An explicit edge (ADK 2.x's `from_node` / `to_node` / `route`). */
export const EdgeConfigSchema = z.strictObject({
  from_node: z.string().min(1),
  to_node: z.string().min(1),
  route: z
    .union([z.string(), z.number(), z.boolean(), z.array(z.union([z.string(), z.number(), z.boolean()]))])
    .optional(),
});

/** ADK 2.x `Workflow` config: `edges` as chains (`[START, a, {yes: b}]`) or explicit edges. */
export const WorkflowConfigSchema = z.strictObject({
  agent_class: z.string().optional(),
  name: z.string(),
  description: z.string().optional(),
  edges: z.array(z.union([z.array(ChainElementSchema).min(2), EdgeConfigSchema])).min(1),
  max_concurrency: z.number().int().positive().optional(),
  before_agent_callbacks: callbacks,
  after_agent_callbacks: callbacks,
});
export type WorkflowYaml = z.infer<typeof WorkflowConfigSchema>;

/** The settings a node's own config file takes (ADK 2.x `BaseNode` fields), beside its class's own. */
const nodeFields = {
  agent_class: z.string(),
  name: z.string().min(1),
  description: z.string().optional(),
  rerun_on_resume: z.boolean().optional(),
  wait_for_output: z.boolean().optional(),
  retry_config: RetryConfigSchema.optional(),
  timeout: z.number().positive().optional(),
  idempotent: z.boolean().optional(),
};

/** `FunctionNode` (`func_code`: a registered function), `ToolNode` (`tool_code`: a registered tool), `JoinNode`. */
export const FunctionNodeConfigSchema = z.strictObject({ ...nodeFields, func_code: z.string().min(1) });
export const ToolNodeConfigSchema = z.strictObject({ ...nodeFields, tool_code: z.string().min(1) });
export const JoinNodeConfigSchema = z.strictObject(nodeFields);

/** The node classes a workflow's edges may name by config file. */
export const NODE_CLASSES = ["FunctionNode", "ToolNode", "JoinNode"] as const;

/** The agent classes Baton builds, by the names ADK accepts for them. */
export const AGENT_CLASSES = [
  "LlmAgent",
  "SequentialAgent",
  "ParallelAgent",
  "LoopAgent",
  "Workflow",
] as const;
export type AgentClass = (typeof AGENT_CLASSES)[number];

/** A class name without ADK's module prefix (`google.adk.agents.X`, `google.adk.workflow.X`, `google.adk.X`). */
export const bareClass = (value: string): string => value.replace(/^google\.adk\.(agents\.|workflow\.)?/, "");

/** `agent_class` as ADK resolves it: absent is `LlmAgent`, `Agent` is its alias, `google.adk.agents.X` is `X`. */
export function agentClassOf(value: string | undefined): AgentClass | undefined {
  const bare = bareClass(value ?? "LlmAgent");
  const name = bare === "Agent" ? "LlmAgent" : bare;
  return AGENT_CLASSES.find((known) => known === name);
}
