import type { z } from "zod";
import type { BaseAgent, BaseAgentConfig } from "../agents/base-agent.js";
import { node } from "../workflow/build-node.js";
import { DEFAULT_ROUTE, Edge, type EdgeItem } from "../workflow/graph.js";
import { JoinNode } from "../workflow/join-node.js";
import type { NodeSettings, WorkflowNode } from "../workflow/node.js";
import type { NodeLike } from "../workflow/node-like.js";
import type { RetryConfig } from "../workflow/retry.js";
import { Workflow } from "../workflow/workflow.js";
import type { AgentConfigRegistry } from "./agent-config-registry.js";
import {
  FunctionNodeConfigSchema,
  JoinNodeConfigSchema,
  type RetryConfigSchema,
  ToolNodeConfigSchema,
  type WorkflowYaml,
} from "./agent-config-schema.js";
import { AgentConfigError, configMessage } from "./config-error.js";

/** What a workflow's edges are resolved against: its file, the registry, and the config files. */
export interface WorkflowScope {
  file: string;
  registry: AgentConfigRegistry;
  /** The agent or node the config file `ref` names (relative to `file`). */
  fileAt(ref: string, field: string): BaseAgent | WorkflowNode;
}

const isFileRef = (ref: string) => /\.ya?ml$/i.test(ref);
/** A dotted name's last segment: `my_app.nodes.classify` → `classify` (Python names a node after its function). */
const lastSegment = (ref: string) => ref.slice(ref.lastIndexOf(".") + 1);

/**
 * An ADK 2.x `Workflow` from its config: each edge chain's references (`START`, a config file, a name the
 * registry holds: a function, a node, an agent or a tool) become the graph's nodes, one node per reference,
 * so two chains naming `a` meet at the same node; a routing map's `default` key is `DEFAULT_ROUTE`.
 */
export function workflowFromConfig(
  config: WorkflowYaml,
  base: BaseAgentConfig,
  scope: WorkflowScope,
): Workflow {
  const nodes = new Map<string, NodeLike>();
  const resolve = (ref: string, field: string): NodeLike | "START" => {
    if (ref === "START") return "START";
    const known = nodes.get(ref);
    if (known) return known;
    const made = isFileRef(ref) ? scope.fileAt(ref, field) : registered(ref, field, scope);
    nodes.set(ref, made);
    return made;
  };
  const edges: EdgeItem[] = config.edges.map((item, i) => {
    const field = `edges[${i}]`;
    if (!Array.isArray(item)) {
      const from = resolve(item.from_node, `${field}.from_node`);
      const to = resolve(item.to_node, `${field}.to_node`);
      if (to === "START")
        throw new AgentConfigError(
          configMessage(scope.file, `${field}.to_node`, "START has no incoming edges"),
        );
      const route = item.route === undefined ? null : item.route === "default" ? DEFAULT_ROUTE : item.route;
      return new Edge(from, to, route);
    }
    return item.map((element, j) => {
      const at = `${field}[${j}]`;
      if (typeof element === "string") return resolve(element, at);
      if (Array.isArray(element))
        return element.map((ref, k) => targetOf(resolve(ref, `${at}[${k}]`), scope.file, at));
      return Object.fromEntries(
        Object.entries(element).map(([route, targets]) => [
          route === "default" ? DEFAULT_ROUTE : route,
          Array.isArray(targets)
            ? targets.map((ref) => targetOf(resolve(ref, `${at}.${route}`), scope.file, at))
            : targetOf(resolve(targets, `${at}.${route}`), scope.file, at),
        ]),
      );
    });
  });
  return new Workflow({
    ...base,
    edges,
    ...(config.max_concurrency === undefined ? {} : { maxConcurrency: config.max_concurrency }),
  });
}

function targetOf(value: NodeLike | "START", file: string, field: string): NodeLike {
  if (value === "START")
    throw new AgentConfigError(configMessage(file, field, "START has no incoming edges"));
  return value;
}

/** A name the app registered: a node function or node (`registry.nodes`), else a tool (a `ToolNode`). */
function registered(ref: string, field: string, scope: WorkflowScope): NodeLike {
  const { nodes = {}, tools = {} } = scope.registry;
  const found = nodes[ref];
  if (typeof found === "function") return node(found, { name: lastSegment(ref) });
  if (found !== undefined) return found;
  const tool = tools[ref];
  if (tool !== undefined) return tool;
  const names = [...Object.keys(nodes), ...Object.keys(tools)];
  throw new AgentConfigError(
    configMessage(
      scope.file,
      field,
      `unknown node "${ref}": not a config file, and not in registry.nodes or registry.tools${names.length > 0 ? ` (registered: ${names.join(", ")})` : ""}`,
    ),
  );
}

/** A node config file's node: `FunctionNode` (`func_code`), `ToolNode` (`tool_code`) or `JoinNode`. */
export function nodeFromConfig(
  nodeClass: string,
  raw: unknown,
  file: string,
  registry: AgentConfigRegistry,
  validated: <S extends z.ZodType>(schema: S, raw: unknown, file: string) => z.infer<S>,
): WorkflowNode {
  if (nodeClass === "JoinNode") {
    const config = validated(JoinNodeConfigSchema, raw, file);
    return new JoinNode({ name: config.name, ...settings(config) });
  }
  if (nodeClass === "FunctionNode") {
    const config = validated(FunctionNodeConfigSchema, raw, file);
    const body = registry.nodes?.[config.func_code];
    if (typeof body !== "function")
      throw new AgentConfigError(
        configMessage(file, "func_code", `no function "${config.func_code}" in registry.nodes`),
      );
    return node(body, { name: config.name, ...settings(config) });
  }
  const config = validated(ToolNodeConfigSchema, raw, file);
  const tool = registry.tools?.[config.tool_code];
  if (!tool)
    throw new AgentConfigError(
      configMessage(file, "tool_code", `no tool "${config.tool_code}" in registry.tools`),
    );
  return node(tool, { name: config.name, ...settings(config) });
}

interface NodeYaml {
  description?: string | undefined;
  rerun_on_resume?: boolean | undefined;
  wait_for_output?: boolean | undefined;
  retry_config?: z.infer<typeof RetryConfigSchema> | undefined;
  timeout?: number | undefined;
  idempotent?: boolean | undefined;
}

function settings(config: NodeYaml): NodeSettings {
  const out: NodeSettings = {};
  if (config.description !== undefined) out.description = config.description;
  if (config.rerun_on_resume !== undefined) out.rerunOnResume = config.rerun_on_resume;
  if (config.wait_for_output !== undefined) out.waitForOutput = config.wait_for_output;
  if (config.timeout !== undefined) out.timeout = config.timeout;
  if (config.idempotent !== undefined) out.idempotent = config.idempotent;
  const r = config.retry_config;
  if (r) {
    const retry: RetryConfig = {};
    if (r.max_attempts !== undefined) retry.maxAttempts = r.max_attempts;
    if (r.initial_delay !== undefined) retry.initialDelay = r.initial_delay;
    if (r.max_delay !== undefined) retry.maxDelay = r.max_delay;
    if (r.backoff_factor !== undefined) retry.backoffFactor = r.backoff_factor;
    if (r.jitter !== undefined) retry.jitter = r.jitter;
    if (r.exceptions !== undefined) retry.exceptions = r.exceptions;
    out.retryConfig = retry;
  }
  return out;
}
