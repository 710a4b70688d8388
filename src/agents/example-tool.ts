import * as z from "zod";
import { BatonError } from "../core/errors.js";
import type { LlmRequest } from "../core/llm.js";
import { type Example, type ExampleProvider, ExampleSchema, examplesText } from "./examples-text.js";
import { appendInstructions, type RequestTool, type RequestToolContext } from "./request-tool.js";

/**
 * ADK's `ExampleTool`: few-shot examples added to the system instruction of every request (ADK's
 * `example_util` text, byte for byte), from a list or from a provider asked with the user's message. The
 * model never calls it. A turn whose user message has no text gets no examples, as in ADK.
 * @example
 * const classifier = new LlmAgent({ name: "classifier", model: "google:gemini-2.5-flash",
 *   tools: [new ExampleTool([{ input: userText("Great!"), output: [{ role: "model", parts: [{ text: "positive" }] }] }])] });
 */
export class ExampleTool implements RequestTool {
  readonly kind = "request";
  readonly name = "example_tool";
  readonly examples: readonly Example[] | ExampleProvider;

  constructor(examples: readonly Example[] | ExampleProvider) {
    if (!isList(examples)) {
      this.examples = examples;
      return;
    }
    const parsed = z.array(ExampleSchema).safeParse(examples);
    if (!parsed.success) {
      throw new BatonError(
        "invalid_config",
        `ExampleTool: invalid examples: ${z.prettifyError(parsed.error)}`,
      );
    }
    this.examples = parsed.data;
  }

  async processRequest(request: LlmRequest, ctx: RequestToolContext): Promise<void> {
    const query = ctx.userContent?.parts?.[0]?.text;
    if (!query) return;
    const examples = isList(this.examples) ? this.examples : await this.examples.getExamples(query);
    appendInstructions(request, [examplesText(examples, ctx.modelName)]);
  }
}

const isList = (examples: readonly Example[] | ExampleProvider): examples is readonly Example[] =>
  Array.isArray(examples);
