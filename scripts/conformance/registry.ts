import type { AgentConfigRegistry } from "../../src/config/agent-config-registry.js";
import { mcpToolClasses } from "../../src/mcp.js";
import { agentCallbacks } from "./ports/agent-callbacks.js";
import { toolsAgent002 } from "./ports/tools-agent-002.js";

/**
 * The tools and callbacks ADK's conformance agents define in Python, ported to TypeScript and keyed by
 * their dotted Python names (`tools_agent_002.tools.validate_email`), as the YAML names them. The
 * replay Worker `npm run conformance` builds passes this to `loadAgentConfig`; a case whose YAML names
 * something missing here cannot be loaded, and the run says which file and name. docs/conformance.md
 * lists which cases need what. ADK's `McpToolset` comes from the MCP entry, as an app would give it.
 */
export const conformanceRegistry: AgentConfigRegistry = {
  agentCallbacks,
  tools: { ...toolsAgent002 },
  toolClasses: mcpToolClasses,
};
