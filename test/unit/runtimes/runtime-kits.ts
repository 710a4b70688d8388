import type { LanguageModelV3CallOptions } from "@ai-sdk/provider";
import {
  type Context,
  fauxAssistantMessage,
  fauxText,
  fauxToolCall,
  registerFauxProvider,
} from "@mariozechner/pi-ai";
import type { AgentRuntime } from "../../../src/runtimes/agent-runtime.js";
import { aiSdkRuntime } from "../../../src/runtimes/ai-sdk-runtime.js";
import { piRuntime } from "../../../src/runtimes/pi-runtime.js";
import { type Reply, scriptedModel } from "../support/scripted-model.js";

/** What a scenario sees of one model request, whichever runtime made it. */
export interface SeenRequest {
  system: string;
  toolNames: string[];
  /** The `agent_name` enum of the transfer tool, when offered. */
  transferEnum: unknown[] | undefined;
  /** Every message's text, flattened. */
  text: string;
}

/** A runtime over a scripted model (one reply per model call, the last repeats) and what it was asked. */
export interface ScriptedRuntime {
  runtime: AgentRuntime;
  requests(): SeenRequest[];
}

export interface RuntimeKit {
  name: string;
  scripted(script: readonly Reply[]): ScriptedRuntime;
}

const enumOf = (schema: unknown): unknown[] | undefined => {
  // SAFETY: a read through optional chaining; any other shape gives undefined.
  const parsed = schema as { properties?: { agent_name?: { enum?: unknown[] } } } | undefined;
  return parsed?.properties?.agent_name?.enum;
};

function seenByAiSdk(options: LanguageModelV3CallOptions): SeenRequest {
  const system = options.prompt.flatMap((m) => (m.role === "system" ? [m.content] : [])).join("\n");
  const tools = options.tools ?? [];
  const transfer = tools.find((t) => t.name === "transfer_to_agent");
  return {
    system,
    toolNames: tools.map((t) => t.name),
    transferEnum: transfer && "inputSchema" in transfer ? enumOf(transfer.inputSchema) : undefined,
    text: JSON.stringify(options.prompt),
  };
}

export const aiSdkKit: RuntimeKit = {
  name: "aiSdkRuntime",
  scripted(script) {
    const model = scriptedModel(script);
    return { runtime: aiSdkRuntime({ model, maxRetries: 0 }), requests: () => model.calls.map(seenByAiSdk) };
  },
};

let fauxCount = 0;

function seenByPi(context: Context): SeenRequest {
  const tools = context.tools ?? [];
  return {
    system: context.systemPrompt ?? "",
    toolNames: tools.map((t) => t.name),
    transferEnum: enumOf(tools.find((t) => t.name === "transfer_to_agent")?.parameters),
    text: JSON.stringify(context.messages),
  };
}

export const piKit: RuntimeKit = {
  name: "piRuntime",
  scripted(script) {
    fauxCount += 1;
    const faux = registerFauxProvider({ provider: `faux-${fauxCount}`, api: `faux-api-${fauxCount}` });
    const seen: SeenRequest[] = [];
    const answer = (context: Context) => {
      seen.push(seenByPi(context));
      const reply = script[Math.min(seen.length - 1, script.length - 1)];
      if (reply === undefined) throw new Error("empty script");
      if ("throws" in reply)
        return fauxAssistantMessage([], { stopReason: "error", errorMessage: reply.throws.message });
      if ("fail" in reply)
        return fauxAssistantMessage([], { stopReason: "error", errorMessage: `HTTP ${reply.fail}` });
      if ("finish" in reply) return fauxAssistantMessage([]);
      const blocks = [
        ...("text" in reply && reply.text !== undefined ? [fauxText(reply.text)] : []),
        ...("calls" in reply
          ? reply.calls.map((c) => fauxToolCall(c.name, c.args, c.id ? { id: c.id } : {}))
          : []),
      ];
      return fauxAssistantMessage(blocks, { stopReason: "calls" in reply ? "toolUse" : "stop" });
    };
    faux.setResponses(Array.from({ length: 40 }, () => answer));
    return { runtime: piRuntime({ model: faux.getModel(), apiKey: "faux" }), requests: () => seen };
  },
};

export const RUNTIME_KITS: readonly RuntimeKit[] = [aiSdkKit, piKit];
