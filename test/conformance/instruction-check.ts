import type { BaseAgent } from "../../src/agents/base-agent.js";
import type { LlmAgent } from "../../src/agents/llm-agent.js";

/*
 * Baton words its system instruction its own way, so it is checked structurally. The recorded text (ADK
 * Python's wording) is the oracle for WHICH facts must be there: the identity, the transfer targets in
 * order, the sorted list of valid names, and whether the "go to your parent" sentence is present.
 */

const IDENTITY = /Your internal name is "([^"]*)"\. The description about you is "([^"]*)"\./;
const TARGET = /^Agent name: (.*)\nAgent description: (.*)$/gm;
const PARENT = /transfer to your parent agent ([A-Za-z_][A-Za-z0-9_]*)/;

interface Target {
  name: string;
  description: string;
}

const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** `name` as a whole identifier in `line` (so `math_tutor` does not match inside `math_tutors`). */
const mentions = (line: string, name: string): boolean =>
  new RegExp(`(^|[^A-Za-z0-9_])${escapeRegExp(name)}($|[^A-Za-z0-9_])`).test(line);

/** `list` in `text` as a whole list: not the tail or head of a longer `` `a`, `b` `` list. */
function hasWholeList(text: string, list: string): boolean {
  for (let at = text.indexOf(list); at >= 0; at = text.indexOf(list, at + 1)) {
    const before = text.slice(Math.max(0, at - 2), at);
    const after = text.slice(at + list.length, at + list.length + 2);
    if (before !== ", " && after !== ", ") return true;
  }
  return false;
}

/** Each target's name, then its description, in target order, scanning Baton's lines forward. */
function targetProblems(lines: readonly string[], targets: readonly Target[]): string[] {
  let cursor = 0;
  for (const [k, target] of targets.entries()) {
    const nameLine = lines.findIndex((line, i) => i >= cursor && mentions(line, target.name));
    const descLine = lines.findIndex(
      (line, i) => nameLine >= 0 && i >= nameLine && line.includes(target.description),
    );
    if (nameLine < 0 || descLine < 0) {
      return [
        `transfer target #${k} ${target.name} ("${target.description}") is missing or out of order in Baton's ` +
          "system instruction",
      ];
    }
    cursor = descLine + 1;
  }
  return [];
}

/** Every agent of the tree, depth first. */
const allAgents = (root: BaseAgent): BaseAgent[] => [root, ...root.subAgents.flatMap(allAgents)];

/**
 * Problems of Baton's system instruction `live` against the recorded one, for `agent` in the tree of
 * `root`. Problems marked "recording:" mean the data and the loaded agent disagree, not Baton.
 */
export function instructionProblems(
  live: string,
  recorded: string,
  agent: LlmAgent,
  root: BaseAgent,
): string[] {
  const problems: string[] = [];
  const own = agent.config.instruction;
  if (typeof own !== "string") return [`agent ${agent.name} has no string instruction to look for`];
  if (!recorded.startsWith(own))
    problems.push("recording: system_instruction does not start with the YAML instruction");
  if (!live.includes(own))
    problems.push("Baton's system instruction lacks the agent's instruction text verbatim");

  const identity = IDENTITY.exec(recorded);
  if (identity?.[1] !== agent.name || identity[2] !== agent.description) {
    problems.push(`recording: the identity line does not name ${agent.name} with its YAML description`);
  }
  const quoted = [`"${agent.name}"`, `"${agent.description}"`];
  const identityLine = live.split("\n").find((line) => quoted.every((q) => line.includes(q)));
  if (identityLine === undefined) {
    problems.push(`Baton's system instruction has no identity line quoting ${quoted.join(" and ")}`);
  }

  // What is left of Baton's text once its own instruction and identity line are out: the transfer block.
  const rest = live.replace(own, "").replace(identityLine ?? "", "");
  const lines = rest.split("\n");
  const targets = [...recorded.matchAll(TARGET)].map(([, name = "", description = ""]) => ({
    name,
    description,
  }));
  problems.push(...targetProblems(lines, targets));
  for (const other of allAgents(root)) {
    const offered = other === agent || targets.some((t) => t.name === other.name);
    if (!offered && other.description !== "" && rest.includes(other.description)) {
      problems.push(`Baton's system instruction describes ${other.name}, which the recording does not offer`);
    }
  }
  if (targets.length > 0) {
    const list = targets
      .map((t) => t.name)
      .sort()
      .map((name) => `\`${name}\``)
      .join(", ");
    if (!hasWholeList(recorded, list)) problems.push(`recording: no sorted name list ${list}`);
    if (!hasWholeList(rest, list))
      problems.push(`Baton's system instruction lacks the sorted name list ${list}`);
  }

  const parent = PARENT.exec(recorded)?.[1];
  const parentLines = lines.filter((line) => /\bparent\b/i.test(line));
  if (parent === undefined) {
    if (parentLines[0] !== undefined) {
      problems.push(
        `Baton's system instruction has a parent sentence the recording lacks: ${JSON.stringify(parentLines[0])}`,
      );
    }
  } else {
    if (parent !== agent.parentAgent?.name)
      problems.push(`recording: parent sentence names ${parent}, not the parent`);
    if (!parentLines.some((line) => mentions(line, parent))) {
      problems.push(
        `Baton's system instruction lacks the sentence sending the agent to its parent ${parent}`,
      );
    }
  }
  return problems;
}
