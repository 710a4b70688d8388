import type {
  LanguageModelV3CallOptions,
  LanguageModelV3FunctionTool,
  LanguageModelV3Prompt,
  LanguageModelV3ToolResultOutput,
} from "@ai-sdk/provider";
import { argumentsFor } from "./demo-arguments.js";
import { keywords, overlap } from "./demo-words.js";

/** What the demo model says next. */
export type DemoReply =
  | { kind: "text"; text: string }
  | { kind: "tool-call"; toolName: string; input: Record<string, unknown> };

const TRANSFER_TOOL = "transfer_to_agent";

const systemOf = (prompt: LanguageModelV3Prompt): string =>
  prompt.flatMap((m) => (m.role === "system" ? [m.content] : [])).join("\n\n");

/** The newest user-written text: tool results and "For context:" re-framed messages are not the user's. */
export function lastUserText(prompt: LanguageModelV3Prompt): string {
  for (const message of [...prompt].reverse()) {
    if (message.role !== "user") continue;
    const texts = message.content.flatMap((p) => (p.type === "text" ? [p.text] : []));
    if (texts.length === 0 || texts[0]?.startsWith("For context:")) continue;
    return texts.join("\n").trim();
  }
  return "";
}

/** The agent's name and description from ADK's identity line, or its "You are …" sentence, or first line. */
export function identityOf(system: string): { name?: string; description?: string; sentence: string } {
  const name = /internal name is "([^"]+)"/.exec(system)?.[1];
  const description = /description about you is "([^"]*)"/.exec(system)?.[1]?.replace(/[\s.]+$/, "");
  if (name) return { name, ...(description ? { description } : {}), sentence: `I am ${name}` };
  const youAre = /\bYou are ([^.\n]+)/.exec(system)?.[1];
  if (youAre) return { sentence: `I am ${youAre}` };
  const first = system.split("\n").find((line) => line.trim() !== "");
  return { sentence: first ? `My instructions begin: "${first.trim()}"` : "I am the demo model" };
}

/** A transfer target's keywords: its name, plus the lines of the transfer block that describe it. */
function targetWords(target: string, others: string[], system: string): Set<string> {
  const lines = system.split("\n");
  const mentions = (line: string, name: string) => line.split(/[^\w-]+/).includes(name);
  const words = [target];
  lines.forEach((line, i) => {
    if (/^\s*Agent name:\s*(.+?)\s*$/.exec(line)?.[1] === target) {
      const next = lines[i + 1] ?? "";
      if (/^\s*Agent description:/.test(next)) words.push(next.replace(/^\s*Agent description:/, ""));
    } else if (mentions(line, target) && !others.some((o) => o !== target && mentions(line, o))) {
      words.push(line);
    }
  });
  return keywords(words.join(" "));
}

function enumOf(tool: LanguageModelV3FunctionTool): string[] {
  const schema: unknown = tool.inputSchema;
  if (typeof schema !== "object" || schema === null || !("properties" in schema)) return [];
  const { properties } = schema;
  if (typeof properties !== "object" || properties === null || !("agent_name" in properties)) return [];
  const param: unknown = properties.agent_name;
  if (typeof param !== "object" || param === null || !("enum" in param) || !Array.isArray(param.enum))
    return [];
  return param.enum.filter((v): v is string => typeof v === "string");
}

/** The best-scoring candidate above `floor`; ties go to the earlier one. */
function best<T>(candidates: T[], score: (c: T) => number, floor: number): T | undefined {
  let winner: T | undefined;
  let top = floor;
  for (const candidate of candidates) {
    const s = score(candidate);
    if (s > top) [winner, top] = [candidate, s];
  }
  return winner;
}

// A flat object reads as "key: value, …"; anything else as JSON.
const readable = (value: unknown): string => {
  if (typeof value === "string") return value;
  if (typeof value !== "object" || value === null || Array.isArray(value)) return JSON.stringify(value);
  const entries = Object.entries(value);
  if (entries.some(([, v]) => typeof v === "object" && v !== null)) return JSON.stringify(value);
  return entries.map(([k, v]) => `${k}: ${String(v)}`).join(", ");
};

const render = (output: LanguageModelV3ToolResultOutput): string => {
  if (output.type === "execution-denied") return "was not run";
  return output.type.startsWith("error")
    ? `failed: ${readable(output.value)}`
    : `returned ${readable(output.value)}`;
};

/**
 * The demo model's whole policy, a pure function of the request:
 * 1. the prompt ends with tool results → a text summarising them (`<tool> returned key: value, …`);
 * 2. `transfer_to_agent` is offered and the user's newest text shares more keywords with a target
 *    (its name and its "Agent description:" line) than with this agent's own name and description
 *    → transfer to the first best target;
 * 3. another tool shares a keyword with the user's text (tool name + description) → call the best one,
 *    with arguments built from its JSON Schema (see `argumentsFor`);
 * 4. otherwise → a short answer in role: "I am <name> (<description>). You asked: "<text>" …".
 */
export function demoReply(options: LanguageModelV3CallOptions): DemoReply {
  const { prompt } = options;
  const last = prompt.at(-1);
  if (last?.role === "tool") {
    const lines = last.content.flatMap((p) =>
      p.type === "tool-result" ? [`${p.toolName} ${render(p.output)}`] : [],
    );
    return { kind: "text", text: `Here is what I found: ${lines.join("; ")}.` };
  }
  const system = systemOf(prompt);
  const text = lastUserText(prompt);
  const userWords = keywords(text);
  const me = identityOf(system);
  const tools = (options.tools ?? []).filter((t): t is LanguageModelV3FunctionTool => t.type === "function");
  const transfer = tools.find((t) => t.name === TRANSFER_TOOL);
  if (transfer) {
    const targets = enumOf(transfer);
    const selfWords = keywords(me.name ? `${me.name} ${me.description ?? ""}` : me.sentence);
    const floor = overlap(userWords, selfWords);
    const target = best(targets, (t) => overlap(userWords, targetWords(t, targets, system)), floor);
    if (target) return { kind: "tool-call", toolName: TRANSFER_TOOL, input: { agent_name: target } };
  }
  const toolWords = (t: LanguageModelV3FunctionTool) => keywords(`${t.name} ${t.description ?? ""}`);
  const others = tools.filter((t) => t !== transfer);
  const tool = best(others, (t) => overlap(userWords, toolWords(t)), 0);
  if (tool) {
    return {
      kind: "tool-call",
      toolName: tool.name,
      input: argumentsFor(tool.inputSchema, text, toolWords(tool)),
    };
  }
  const who = me.description ? `${me.sentence} (${me.description})` : me.sentence;
  const asked = text ? ` You asked: "${text}".` : " How can I help?";
  return {
    kind: "text",
    text: `${who}.${asked} (This is Baton's offline demo model; set a real model for real answers.)`,
  };
}
