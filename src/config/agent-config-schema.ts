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

/** The agent classes Baton builds, by the names ADK accepts for them. */
export const AGENT_CLASSES = ["LlmAgent", "SequentialAgent", "ParallelAgent", "LoopAgent"] as const;
export type AgentClass = (typeof AGENT_CLASSES)[number];

/** `agent_class` as ADK resolves it: absent is `LlmAgent`, `Agent` is its alias, `google.adk.agents.X` is `X`. */
export function agentClassOf(value: string | undefined): AgentClass | undefined {
  const bare = (value ?? "LlmAgent").replace(/^google\.adk\.agents\./, "");
  const name = bare === "Agent" ? "LlmAgent" : bare;
  return AGENT_CLASSES.find((known) => known === name);
}
