import * as z from "zod";
import { ContentSchema } from "../core/content.js";
import { pyRepr } from "./py-repr.js";

/** ADK's `Example`: a user input and the model's answer to it (one or more contents, calls included). */
export const ExampleSchema = z.object({ input: ContentSchema, output: z.array(ContentSchema) });
export type Example = z.infer<typeof ExampleSchema>;

/** ADK's `BaseExampleProvider`: the examples for one user query (a store, a search…). */
export interface ExampleProvider {
  getExamples(query: string): readonly Example[] | Promise<readonly Example[]>;
}

// ADK's `example_util` text, verbatim.
const EXAMPLES_INTRO =
  "<EXAMPLES>\nBegin few-shot\nThe following are examples of user queries and model responses using the available tools.\n\n";
const EXAMPLES_END = "End few-shot\n<EXAMPLES>";
const EXAMPLE_END = "End example\n\n";
const USER_PREFIX = "[user]\n";
const MODEL_PREFIX = "[model]\n";
const FUNCTION_PREFIX = "```\n";
const FUNCTION_CALL_PREFIX = "```tool_code\n";
const FUNCTION_RESPONSE_PREFIX = "```tool_outputs\n";
const FUNCTION_SUFFIX = "\n```\n";

/** Python's `f"{v}"` of a JSON value: `str` of a string is the string itself, `repr` of anything else. */
const pyStr = (value: unknown): string => (typeof value === "string" ? value : pyRepr(value));

/** A function call as ADK writes it: `name(a='x', b=2)`. */
function callText(name: string, args: Record<string, unknown>): string {
  const shown = Object.entries(args).map(([k, v]) =>
    typeof v === "string" ? `${k}='${v}'` : `${k}=${pyStr(v)}`,
  );
  return `${name}(${shown.join(", ")})`;
}

/**
 * A function response as ADK writes it: the `__dict__` of genai's `FunctionResponse` (google-genai as pinned
 * by ADK 1.19), its fields in declaration order, unset ones `None`.
 */
function responseText(response: {
  id?: string | undefined;
  name: string;
  response: Record<string, unknown>;
}): string {
  return pyRepr({
    will_continue: null,
    scheduling: null,
    parts: null,
    id: response.id ?? null,
    name: response.name,
    response: response.response,
  });
}

function exampleText(example: Example, index: number, gemini2: boolean): string {
  let out = `EXAMPLE ${index + 1}:\nBegin example\n${USER_PREFIX}`;
  const inputParts = example.input.parts ?? [];
  if (inputParts.length > 0) {
    out += `${inputParts.flatMap((part) => (part.text ? [part.text] : [])).join("\n")}\n`;
  }
  let previous: string | undefined;
  for (const content of example.output) {
    const role = content.role === "model" ? MODEL_PREFIX : USER_PREFIX;
    if (role !== previous) out += role;
    previous = role;
    for (const part of content.parts ?? []) {
      if (part.functionCall) {
        const prefix = gemini2 ? FUNCTION_PREFIX : FUNCTION_CALL_PREFIX;
        out += `${prefix}${callText(part.functionCall.name, part.functionCall.args ?? {})}${FUNCTION_SUFFIX}`;
      } else if (part.functionResponse) {
        const prefix = gemini2 ? FUNCTION_PREFIX : FUNCTION_RESPONSE_PREFIX;
        out += `${prefix}${responseText(part.functionResponse)}${FUNCTION_SUFFIX}`;
      } else if (part.text) out += `${part.text}\n`;
    }
  }
  return `${out}${EXAMPLE_END}`;
}

/**
 * ADK's `convert_examples_to_text`: the few-shot block ExampleTool adds to the system instruction, byte for
 * byte. Calls are fenced plainly for Gemini 2 models (and when the model is unknown), as `tool_code` /
 * `tool_outputs` otherwise.
 */
export function examplesText(examples: readonly Example[], modelName: string | undefined): string {
  const gemini2 = modelName === undefined || modelName.includes("gemini-2");
  return `${EXAMPLES_INTRO}${examples.map((e, i) => exampleText(e, i, gemini2)).join("")}${EXAMPLES_END}`;
}
