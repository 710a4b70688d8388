import type {
  LanguageModelV3CallOptions,
  LanguageModelV3FunctionTool,
  LanguageModelV3ToolResultOutput,
} from "@ai-sdk/provider";
import { AGENT_NAME_PARAM, TRANSFER_TOOL_NAME } from "../transfer/constants.js";
import { argumentsFor } from "./arguments.js";
import { requestFacts, type StatedAgent } from "./request-facts.js";
import { keywords, overlap } from "./words.js";

/** What the demo model says next. */
export type DemoReply =
  | { kind: "text"; text: string }
  | { kind: "tool-call"; toolName: string; input: Record<string, unknown> };

const wordsOf = (agent: StatedAgent): Set<string> => keywords(`${agent.name} ${agent.description}`);

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
 * The demo model's whole policy, a pure function of the request's structure (`requestFacts`):
 * 1. the prompt ends with tool results → a text summarising them (`<tool> returned key: value, …`);
 * 2. the transfer tool is offered and the user's newest text shares more keywords with one of its enum's
 *    agents (name and stated description) than with the answering agent's own → transfer to the first best;
 * 3. another tool shares a keyword with the user's text (tool name + description) → call the best one,
 *    with arguments built from its JSON Schema (see `argumentsFor`);
 * 4. otherwise → a short answer in role: "I am <name> (<description>). You asked: "<text>" …".
 */
export function demoReply(options: LanguageModelV3CallOptions): DemoReply {
  const last = options.prompt.at(-1);
  if (last?.role === "tool") {
    const lines = last.content.flatMap((p) =>
      p.type === "tool-result" ? [`${p.toolName} ${render(p.output)}`] : [],
    );
    return { kind: "text", text: `Here is what I found: ${lines.join("; ")}.` };
  }
  const { me, targets, tools, userText } = requestFacts(options);
  const userWords = keywords(userText);
  const floor = me ? overlap(userWords, wordsOf(me)) : 0;
  const target = best(targets, (t) => overlap(userWords, wordsOf(t)), floor);
  if (target) {
    return { kind: "tool-call", toolName: TRANSFER_TOOL_NAME, input: { [AGENT_NAME_PARAM]: target.name } };
  }
  const toolWords = (t: LanguageModelV3FunctionTool) => keywords(`${t.name} ${t.description ?? ""}`);
  const tool = best(tools, (t) => overlap(userWords, toolWords(t)), 0);
  if (tool) {
    return {
      kind: "tool-call",
      toolName: tool.name,
      input: argumentsFor(tool.inputSchema, userText, toolWords(tool)),
    };
  }
  const who = me
    ? `I am ${me.name}${me.description ? ` (${me.description.replace(/[\s.]+$/, "")})` : ""}`
    : "I am the demo model";
  const asked = userText ? ` You asked: "${userText}".` : " How can I help?";
  return {
    kind: "text",
    text: `${who}.${asked} (This is Baton's offline demo model; set a real model for real answers.)`,
  };
}
