import { BaseAgent } from "../agents/base-agent.js";
import type { FunctionTool } from "../agents/function-tool.js";
import { BatonError } from "../core/errors.js";
import { AgentNode, type AgentNodeSettings } from "./agent-node.js";
import { FunctionNode } from "./function-node.js";
import { isWorkflowNode, type NodeSettings, type WorkflowNode } from "./node.js";
import type { NodeLike } from "./node-like.js";
import { checkRetryConfig } from "./retry.js";
import { ToolNode } from "./tool-node.js";

/** What `node()` takes besides the value: a name and any node setting, plus an agent's `mode`. */
export interface NodeOptions extends AgentNodeSettings {
  name?: string;
}

/** A tool the model calls: an object with a declaration and a `run`. */
export const isFunctionTool = (value: unknown): value is FunctionTool =>
  typeof value === "object" &&
  value !== null &&
  "declaration" in value &&
  typeof value.declaration === "function" &&
  "run" in value &&
  typeof value.run === "function";

const OVERRIDABLE = [
  "name",
  "description",
  "rerunOnResume",
  "waitForOutput",
  "retryConfig",
  "timeout",
  "idempotent",
  "isolationScope",
] as const satisfies readonly (keyof NodeSettings | "name")[];

/**
 * Any node-like value as a node, with `options` over its settings (ADK 2.x `node()`): a node as it is (or a
 * copy with the options), an agent as an `AgentNode`, a tool as a `ToolNode`, a function as a
 * `FunctionNode` named after it.
 * @example
 * new Workflow({ name: "w", edges: [["START", node(fetchOrder, { retryConfig: { maxAttempts: 3 } }), reply]] });
 */
export function node(value: NodeLike, options: NodeOptions = {}): WorkflowNode {
  if (isWorkflowNode(value)) return withOverrides(value, options);
  if (value instanceof BaseAgent) return new AgentNode(value, options);
  if (isFunctionTool(value)) return new ToolNode(value, options);
  if (typeof value === "function") {
    const name = options.name ?? value.name;
    if (!name)
      throw new BatonError("invalid_config", "node(): the function has no name; give one with { name }.");
    const { name: _name, mode: _mode, ...settings } = options;
    return new FunctionNode(name, value, settings);
  }
  throw new BatonError(
    "invalid_config",
    `node(): a ${typeof value} is not a node, an agent, a tool or a function.`,
  );
}

/** The node itself, or a copy of it with the given settings in place of its own. */
function withOverrides(original: WorkflowNode, options: NodeOptions): WorkflowNode {
  const overrides = Object.fromEntries(
    OVERRIDABLE.flatMap((k) => (options[k] === undefined ? [] : [[k, options[k]]])),
  );
  if (Object.keys(overrides).length === 0) return original;
  const name = typeof overrides.name === "string" ? overrides.name.trim() : original.name;
  if (name === "") throw new BatonError("invalid_config", "A node name must not be empty.");
  if (options.retryConfig) checkRetryConfig(name, options.retryConfig);
  // A copy that keeps the node's class (its `run`), with the given settings as its own fields (ADK's clone).
  const copy: WorkflowNode = Object.create(Object.getPrototypeOf(original));
  Object.assign(copy, original, overrides, { name });
  return copy;
}
