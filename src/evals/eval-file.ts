/**
 * ADK's `.evalset.json` file form: the same `EvalSet`, written with pydantic's field names (snake_case),
 * as `adk eval` and ADK's local eval sets manager write it. Free-form maps (tool arguments and responses,
 * session state) keep their keys as they are. Reading takes either spelling (`EvalSetSchema`).
 */
import type { Content, Part } from "../core/content.js";
import { BatonError } from "../core/errors.js";
import { type EvalCase, type EvalSet, EvalSetSchema, type Invocation } from "./eval-set.js";

type Json = Record<string, unknown>;
type Children = Readonly<Record<string, (value: never) => unknown>>;

const snakeKey = (key: string): string => key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

/** One level of `value` with snake_case keys; the fields named in `children` are converted by their own rule. */
function level(value: object, children: Children = {}): Json {
  const out: Json = {};
  for (const [key, v] of Object.entries(value)) {
    if (v === undefined) continue;
    const child = children[key];
    out[snakeKey(key)] = child ? child(v as never) : v;
  }
  return out;
}

const flat = (value: object) => level(value);
const partOf = (part: Part) =>
  level(part, {
    functionCall: flat,
    functionResponse: flat,
    inlineData: flat,
    fileData: flat,
    executableCode: flat,
    codeExecutionResult: flat,
  });
const contentOf = (content: Content) => level(content, { parts: (parts: Part[]) => parts.map(partOf) });

const invocationOf = (invocation: Invocation) =>
  level(invocation, {
    userContent: contentOf,
    finalResponse: contentOf,
    intermediateData: (data: NonNullable<Invocation["intermediateData"]>) =>
      level(data, {
        toolUses: (calls: object[]) => calls.map(flat),
        toolResponses: (responses: object[]) => responses.map(flat),
        intermediateResponses: (pairs: [string, Part[]][]) =>
          pairs.map(([author, parts]) => [author, parts.map(partOf)]),
        invocationEvents: (events: { author: string; content?: Content }[]) =>
          events.map((e) => level(e, { content: contentOf })),
      }),
  });

const caseOf = (evalCase: EvalCase) =>
  level(evalCase, {
    conversation: (invocations: Invocation[]) => invocations.map(invocationOf),
    sessionInput: flat,
  });

/** The eval set as ADK's file text (snake_case, two-space indent, a final newline). */
export function evalSetFileText(evalSet: EvalSet): string {
  const file = level(evalSet, { evalCases: (cases: EvalCase[]) => cases.map(caseOf) });
  return `${JSON.stringify(file, null, 2)}\n`;
}

/** An eval set file's text parsed (either spelling); a bad file is a 400 that names its faults. */
export function parseEvalSetFile(text: string, where: string): EvalSet {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new BatonError("invalid_request", `${where} is not JSON.`);
  }
  const parsed = EvalSetSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  const faults = parsed.error.issues.map((i) => `${i.path.join(".") || "(file)"}: ${i.message}`);
  throw new BatonError("invalid_request", `${where} is not an ADK eval set: ${faults.join("; ")}`);
}
