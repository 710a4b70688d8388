import type { BaseAgent } from "../agents/base-agent.js";
import { toolNamesOf } from "./agent-info.js";

/** An edge to draw highlighted: `[from, to]`; `to` may be `""` to light up `from` alone (ADK's convention). */
export type Highlight = readonly [from: string, to: string];

export interface GraphOptions {
  darkMode?: boolean;
  highlights?: readonly Highlight[];
}

const LIGHT = { bg: "#F8FAFC", fill: "#FFFFFF", border: "#94A3B8", text: "#0F172A", edge: "#64748B" };
const DARK = { bg: "#0F172A", fill: "#1E293B", border: "#475569", text: "#F8FAFC", edge: "#94A3B8" };
const HOT = { fill: "#0F5223", text: "#FFFFFF", edge: "#69CB87" };
const AGENT_ICON = '<FONT COLOR="#42A5F5" POINT-SIZE="14">&#10022;</FONT> ';
const TOOL_ICON = '<FONT COLOR="#6B7280" POINT-SIZE="14">&#128295;</FONT> ';

/** A DOT quoted id: names come from user code, so quotes and backslashes are escaped. */
export const quoted = (id: string): string => `"${id.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
export const html = (text: string): string =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");

/**
 * The agent tree as Graphviz DOT text, which ADK's dev UI renders in the browser: one box per agent, a
 * dashed box per tool, parent → sub-agent edges (the transfer paths) and agent → tool edges. Written here
 * because a Worker has no graphviz binary; the UI only needs the DOT source.
 */
export function agentGraphDot(root: BaseAgent, options: GraphOptions = {}): string {
  const palette = options.darkMode ? DARK : LIGHT;
  const highlights = options.highlights ?? [];
  const hotNode = (name: string) => highlights.some(([from, to]) => from === name || to === name);
  const hotEdge = (a: string, b: string) =>
    highlights.some(([from, to]) => (from === a && to === b) || (from === b && to === a));
  const lines = [
    `digraph ${quoted(root.name)} {`,
    `  graph [bgcolor="${palette.bg}", pad=0.5, nodesep=0.5, ranksep=0.8, fontname="Helvetica"];`,
    `  node [shape=rect, style="rounded,filled", fillcolor="${palette.fill}", color="${palette.border}", fontname="Helvetica", fontcolor="${palette.text}", fontsize=12, margin="0.25,0.15"];`,
    `  edge [color="${palette.edge}", penwidth=1.2, arrowhead=vee, arrowsize=0.7];`,
  ];
  const node = (name: string, icon: string, tooltip: string, extra: string) => {
    const hot = hotNode(name)
      ? `, fillcolor="${HOT.fill}", color="${HOT.fill}", fontcolor="${HOT.text}"`
      : "";
    lines.push(`  ${quoted(name)} [label=<${icon}${html(name)}>, tooltip=${quoted(tooltip)}${extra}${hot}];`);
  };
  const edge = (from: string, to: string, attrs: string[]) => {
    if (hotEdge(from, to)) attrs.push(`color="${HOT.edge}"`, "penwidth=2.4");
    lines.push(`  ${quoted(from)} -> ${quoted(to)} [${attrs.join(", ")}];`);
  };
  const tools = new Set<string>();
  const visit = (agent: BaseAgent) => {
    node(agent.name, AGENT_ICON, agent.description || "Agent", "");
    for (const tool of toolNamesOf(agent)) {
      if (!tools.has(tool)) node(tool, TOOL_ICON, "Tool", ', style="rounded,filled,dashed"');
      tools.add(tool);
      edge(agent.name, tool, ['style="dashed"']);
    }
    for (const sub of agent.subAgents) {
      visit(sub);
      edge(agent.name, sub.name, []);
    }
  };
  visit(root);
  lines.push("}");
  return `${lines.join("\n")}\n`;
}
