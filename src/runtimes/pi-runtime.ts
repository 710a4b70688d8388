import { type AgentTool, agentLoopContinue } from "@mariozechner/pi-agent-core";
import {
  type Api,
  type AssistantMessage,
  type Message,
  type Model,
  type StreamOptions,
  type ToolResultMessage,
  Type,
} from "@mariozechner/pi-ai";
import type { Part } from "../core/content.js";
import { BatonError } from "../core/errors.js";
import type { AgentRuntime, RuntimeStep, RuntimeTool, RuntimeTurn } from "./agent-runtime.js";
import { toPiMessages } from "./pi-messages.js";

export interface PiRuntimeOptions {
  /** A pi-ai model: `getModel("openai", "gpt-4.1-mini")`, or your own `Model` for an OpenAI-compatible server. */
  model: Model<Api>;
  /** The provider key; without it pi-ai reads its own environment variables (plain Node only). */
  apiKey?: string;
  /** pi-agent-core's tool execution mode. Default `"parallel"`. */
  toolExecution?: "sequential" | "parallel";
  /** Extra pi-ai stream options (temperature, maxTokens, headers, …). */
  streamOptions?: Omit<StreamOptions, "apiKey" | "signal">;
}

/** A Baton tool as a pi `AgentTool`; the output object rides along as `details` for the stop check. */
function piTool(t: RuntimeTool): AgentTool {
  return {
    name: t.name,
    label: t.name,
    description: t.description,
    parameters: Type.Unsafe<Record<string, unknown>>(t.parameters),
    // pi checks arguments against the schema before running; Baton's own message comes first where it has one.
    prepareArguments: (args) => {
      // SAFETY: pi passes the model's parsed arguments object.
      const record = (args ?? {}) as Record<string, unknown>;
      const rejection = t.rejects(record);
      if (rejection !== undefined) throw new Error(rejection);
      return record;
    },
    execute: async (callId, params) => {
      // SAFETY: `prepareArguments` returned this very record, validated against the object schema.
      const output = await t.execute(params as Record<string, unknown>, callId);
      return { content: [{ type: "text", text: JSON.stringify(output) }], details: output };
    },
  };
}

function stepOf(message: AssistantMessage, results: readonly ToolResultMessage[]): RuntimeStep {
  if (message.stopReason === "error" || message.stopReason === "aborted") {
    throw new BatonError(
      "MODEL_ERROR",
      message.errorMessage ?? `The pi model call ended: ${message.stopReason}.`,
    );
  }
  const parts = message.content.flatMap((c): Part[] => {
    if (c.type === "text") return c.text ? [{ text: c.text }] : [];
    if (c.type === "toolCall") return [{ functionCall: { id: c.id, name: c.name, args: c.arguments } }];
    return [];
  });
  const rejected = results
    .filter((r) => r.isError)
    .map((r) => ({
      callId: r.toolCallId,
      error: r.content.map((c) => (c.type === "text" ? c.text : "")).join(""),
    }));
  const { input, output, totalTokens } = message.usage;
  return {
    parts,
    rejected,
    finishReason: message.stopReason === "toolUse" ? "TOOL_CALLS" : message.stopReason.toUpperCase(),
    usageMetadata: { promptTokenCount: input, candidatesTokenCount: output, totalTokenCount: totalTokens },
  };
}

const isMessage = (m: { role: string }): m is Message =>
  m.role === "user" || m.role === "assistant" || m.role === "toolResult";

/**
 * A RuntimeAgent's turn on `@mariozechner/pi-agent-core`'s agent loop. Baton's tools run inside the loop;
 * `shouldStopAfterTurn` ends it before the next model call once a transfer or a pause happened.
 * Import it from `@baton-agents/core/pi`: pi-ai's provider SDKs then stay out of workers that do not use it.
 * @example
 * new RuntimeAgent({ name: "coder", runtime: piRuntime({ model: getModel("openai", "gpt-4.1-mini") }) })
 */
export function piRuntime(options: PiRuntimeOptions): AgentRuntime {
  return {
    kind: "pi",
    async *run(turn: RuntimeTurn) {
      const { model } = options;
      const context = {
        systemPrompt: turn.systemPrompt,
        messages: toPiMessages(turn.history, model),
        tools: turn.tools.map(piTool),
      };
      const stream = agentLoopContinue(
        context,
        {
          ...options.streamOptions,
          model,
          ...(options.apiKey === undefined ? {} : { apiKey: options.apiKey }),
          toolExecution: options.toolExecution ?? "parallel",
          convertToLlm: (messages) => messages.filter(isMessage),
          shouldStopAfterTurn: ({ toolResults }) =>
            turn.endsLoop(toolResults.map((r) => ({ callId: r.toolCallId, output: r.details }))),
        },
        turn.signal,
      );
      for await (const event of stream) {
        if (event.type !== "turn_end" || event.message.role !== "assistant") continue;
        yield stepOf(event.message, event.toolResults);
      }
    },
  };
}
