import type { LanguageModelV3 } from "@ai-sdk/provider";
import { generateText, jsonSchema, type LanguageModel, type StepResult, type ToolSet, tool } from "ai";
import type { Part } from "../core/content.js";
import { BatonError } from "../core/errors.js";
import type { Env } from "../core/ports.js";
import type { AgentRuntime, RuntimeStep, RuntimeTurn } from "./agent-runtime.js";
import { toModelMessages } from "./ai-sdk-messages.js";
import { AsyncQueue } from "./async-queue.js";

export interface AiSdkRuntimeOptions {
  /**
   * A `provider:model` string resolved through the registered providers as an LlmAgent's `model` is
   * (`"openai:gpt-4.1-mini"` needs `models: [openai()]`; `"demo:"` is built in), an AI SDK model object
   * (`createOpenAI({ apiKey })("gpt-4.1-mini")`), or a function of the invocation's env that gives either.
   * A string never reaches the AI SDK's global default provider: an unknown prefix is a `MODEL_CONFIG` error.
   */
  model: LanguageModel | ((env: Env) => LanguageModel);
  /** The most model calls one turn may make (steps of the AI SDK loop). Default 10. */
  maxSteps?: number;
  temperature?: number;
  maxOutputTokens?: number;
  /** The AI SDK's own retries of a failed model call. Default 2, as in the AI SDK. */
  maxRetries?: number;
}

/** The turn's tools in the AI SDK's format; the schema is not checked by the AI SDK, Baton's tools check it. */
function toolSet(turn: RuntimeTurn): ToolSet {
  const tools: ToolSet = {};
  for (const t of turn.tools) {
    tools[t.name] = tool({
      description: t.description,
      inputSchema: jsonSchema<Record<string, unknown>>(t.parameters),
      execute: (args, { toolCallId }) => t.execute(args, toolCallId),
    });
  }
  return tools;
}

const errorText = (error: unknown): string => (error instanceof Error ? error.message : String(error));

function stepOf(step: StepResult<ToolSet>): RuntimeStep {
  const parts = step.content.flatMap((c): Part[] => {
    if (c.type === "text") return c.text ? [{ text: c.text }] : [];
    if (c.type === "tool-call") {
      // SAFETY: the model's tool input is a JSON object: every Baton tool declares an object schema.
      const args = (c.input ?? {}) as Record<string, unknown>;
      return [{ functionCall: { id: c.toolCallId, name: c.toolName, args } }];
    }
    return [];
  });
  const rejected = step.content.flatMap((c) =>
    c.type === "tool-error" ? [{ callId: c.toolCallId, error: errorText(c.error) }] : [],
  );
  const { inputTokens, outputTokens, totalTokens } = step.usage;
  return {
    parts,
    rejected,
    finishReason: step.finishReason.toUpperCase().replaceAll("-", "_"),
    usageMetadata: {
      promptTokenCount: inputTokens,
      candidatesTokenCount: outputTokens,
      totalTokenCount: totalTokens,
    },
  };
}

/** The AI SDK model a `provider:model` string names among the registered providers. */
function registeredModel(turn: RuntimeTurn, spec: string): LanguageModelV3 {
  const model = turn.resolveModel(spec);
  if (model.specificationVersion === "v3" && "doGenerate" in model && "doStream" in model)
    // SAFETY: a v3 model object with both calls is an AI SDK LanguageModelV3 (what aiSdkModelPort resolves).
    return model as LanguageModelV3;
  throw new BatonError("MODEL_CONFIG", `Model "${spec}" did not resolve to an AI SDK v3 model object.`);
}

/**
 * A RuntimeAgent's turn on the AI SDK's own multi-step tool loop (`generateText` with `stopWhen`). Baton's
 * tools run inside the loop; the loop stops before its next model call as soon as a step's results
 * include a transfer or a pause. Not streamed: text beside a transfer must never reach the user.
 * @example
 * new RuntimeAgent({ name: "root", runtime: aiSdkRuntime({ model: "openai:gpt-4.1-mini", maxSteps: 5 }) })
 */
export function aiSdkRuntime(options: AiSdkRuntimeOptions): AgentRuntime {
  return {
    kind: "ai-sdk",
    run(turn) {
      const steps = new AsyncQueue<RuntimeStep>();
      const maxSteps = options.maxSteps ?? 10;
      // One condition, the step count first: Baton is asked only when the loop would otherwise go on.
      const ends = ({ steps: done }: { steps: StepResult<ToolSet>[] }) => {
        if (done.length >= maxSteps) return true;
        const last = done.at(-1);
        const calls = last?.toolCalls ?? [];
        const results = calls.map((call) => ({
          callId: call.toolCallId,
          output: last?.toolResults.find((r) => r.toolCallId === call.toolCallId)?.output,
        }));
        return turn.endsLoop(results);
      };
      const chosen = typeof options.model === "function" ? options.model(turn.env) : options.model;
      generateText({
        model: typeof chosen === "string" ? registeredModel(turn, chosen) : chosen,
        system: turn.systemPrompt,
        messages: toModelMessages(turn.history),
        tools: toolSet(turn),
        stopWhen: ends,
        onStepFinish: (step) => steps.push(stepOf(step)),
        ...(options.temperature === undefined ? {} : { temperature: options.temperature }),
        ...(options.maxOutputTokens === undefined ? {} : { maxOutputTokens: options.maxOutputTokens }),
        ...(options.maxRetries === undefined ? {} : { maxRetries: options.maxRetries }),
        ...(turn.signal ? { abortSignal: turn.signal } : {}),
      }).then(
        () => steps.close(),
        (error: unknown) => steps.fail(error),
      );
      return steps;
    },
  };
}
