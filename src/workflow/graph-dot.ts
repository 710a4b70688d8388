import { lookupTable } from "../core/lookup-table.js";
import type { GraphEdgeInfo, GraphNodeInfo } from "./graph-info.js";

type AgentInfo = GraphNodeInfo;

/** A DOT quoted id: names come from user code, so quotes and backslashes are escaped. */
const quoted = (id: string): string => `"${id.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
const html = (text: string): string =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
const HOT_FILL = "#0F5223";
const HOT_EDGE = "#69CB87";

const LIGHT = {
  bg: "#F8FAFC",
  fill: "#FFFFFF",
  border: "#94A3B8",
  text: "#0F172A",
  edge: "#64748B",
  edgeText: "#475569",
  start: "#10B981",
  startBorder: "#059669",
  end: "#EF4444",
  endBorder: "#DC2626",
};
const DARK = {
  bg: "#0F172A",
  fill: "#1E293B",
  border: "#475569",
  text: "#F8FAFC",
  edge: "#94A3B8",
  edgeText: "#CBD5E1",
  start: "#059669",
  startBorder: "#047857",
  end: "#DC2626",
  endBorder: "#B91C1C",
};
const ICONS: Readonly<Partial<Record<AgentInfo["type"], [string, string]>>> = lookupTable({
  agent: ["&#10022;", "#42A5F5"],
  workflow: ["&#8887;", "#9333EA"],
  function: ["&#402;", "#10B981"],
  join: ["&#9013;", "#F59E0B"],
  tool: ["&#128295;", "#6B7280"],
});
const START = "__START__";
const END = "__END__";

/**
 * One workflow level as DOT text, drawn the way adk-devtools 2.0's `renderStructureGraphAsDot` draws it:
 * START and END ovals, a diamond for a node with routed edges (marked when it has no default), an oval for
 * a join, a dashed box for a tool (an agent's tools hang off it), the routes on the edges. Node ids are the
 * node names, which is how the dev UI finds the nodes of an event's path to light up.
 */
export function workflowDot(
  level: AgentInfo,
  options: { darkMode?: boolean; lit?: readonly [from: string, to: string] } = {},
): string {
  const palette = options.darkMode ? DARK : LIGHT;
  const [litFrom, litTo] = options.lit ?? ["", ""];
  const nodes = [...(level.graph?.nodes ?? [])];
  const edges: (GraphEdgeInfo & { tool?: true })[] = [...(level.graph?.edges ?? [])];
  for (const node of [...nodes]) {
    for (const tool of node.tools ?? []) {
      if (!nodes.some((n) => n.name === tool.name)) nodes.push({ name: tool.name, type: "tool" });
      edges.push({
        from_node: { name: node.name, type: node.type },
        to_node: { name: tool.name, type: "tool" },
        tool: true,
      });
    }
  }
  const flow = edges.filter((e) => !e.tool);
  const lines = [
    `digraph ${quoted(level.name)} {`,
    `  graph [bgcolor="${palette.bg}", pad=0.5, nodesep=0.5, ranksep=0.8, fontname="Helvetica", splines="spline"];`,
    `  node [shape=rect, style="rounded,filled", fillcolor="${palette.fill}", color="${palette.border}", penwidth=1.5, fontname="Helvetica", fontcolor="${palette.text}", fontsize=12, margin="0.25,0.15"];`,
    `  edge [color="${palette.edge}", penwidth=1.2, fontname="Helvetica", fontcolor="${palette.edgeText}", fontsize=10, arrowhead=vee, arrowsize=0.7];`,
  ];
  const oval = (id: string, label: string, fill: string, border: string) =>
    `  ${quoted(id)} [label="${label}", shape=oval, style="filled", fillcolor="${fill}", color="${border}", fontcolor="${palette.text}", fontname="Helvetica-Bold", width=0.9, fixedsize=true];`;
  lines.push(oval(START, "START", palette.start, palette.startBorder));
  for (const node of nodes) {
    if (node.name === START) continue;
    const outgoing = flow.filter((e) => e.from_node.name === node.name);
    const routed = outgoing.some((e) => e.route !== undefined);
    const hasDefault = outgoing.some((e) => e.route === undefined || e.route === "default");
    const [icon, color] = ICONS[node.type] ?? ["", ""];
    const name = html(node.name);
    const text = icon ? `<FONT COLOR="${color}" POINT-SIZE="14">${icon}</FONT> ${name}` : name;
    const label =
      routed && !hasDefault ? `<${text}<br/><br/><FONT POINT-SIZE="10">[NO DEFAULT]</FONT>>` : `<${text}>`;
    const tooltip = quoted(node.type.charAt(0).toUpperCase() + node.type.slice(1));
    const shape = routed
      ? 'shape=diamond, style="filled", height=1.2, width=0.8, margin="0.0,0.0"'
      : node.type === "join"
        ? 'shape=oval, style="filled", margin="0.05,0.05"'
        : node.type === "tool"
          ? 'style="rounded,filled,dashed"'
          : 'style="rounded,filled"';
    const hot =
      node.name === litTo ? `, fillcolor="${HOT_FILL}", color="${HOT_FILL}", fontcolor="#FFFFFF"` : "";
    lines.push(`  ${quoted(node.name)} [label=${label}, tooltip=${tooltip}, ${shape}${hot}];`);
  }
  for (const edge of edges) {
    const route = Array.isArray(edge.route) ? edge.route.join(", ") : edge.route;
    const lit =
      !edge.tool && litFrom !== "" && edge.from_node.name === litFrom && edge.to_node.name === litTo;
    const list = [
      ...(edge.tool ? ['style="dashed"', `color="${palette.edge}"`] : []),
      ...(route && !edge.tool ? [`label=${quoted(`  ${route}`)}`] : []),
      ...(lit ? [`color="${HOT_EDGE}"`, "penwidth=2.4"] : []),
    ];
    const attrs = list.length > 0 ? ` [${list.join(", ")}]` : "";
    lines.push(`  ${quoted(edge.from_node.name)} -> ${quoted(edge.to_node.name)}${attrs};`);
  }
  const terminals = nodes.filter(
    (n) => n.name !== START && n.type !== "tool" && !flow.some((e) => e.from_node.name === n.name),
  );
  if (level.graph && terminals.length > 0) {
    lines.push(oval(END, "END", palette.end, palette.endBorder));
    for (const t of terminals) lines.push(`  ${quoted(t.name)} -> ${quoted(END)};`);
  }
  lines.push("}");
  return `${lines.join("\n")}\n`;
}
