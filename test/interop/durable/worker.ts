// The Worker the durable-turns end-to-end test runs under `wrangler dev` (wrangler.toml beside it).
import type { LanguageModelV3, LanguageModelV3CallOptions } from "@ai-sdk/provider";
import { defineApp, functionTool, LlmAgent } from "@baton-agents/core";
import { createWorker } from "@baton-agents/core/cloudflare";
import * as z from "zod";

export { AppObject, SessionObject, TurnObject, UserObject } from "@baton-agents/core/cloudflare";

/** The newest user text of the prompt, and whether a tool result follows it. */
function lastTurn(options: LanguageModelV3CallOptions): { text: string; toolResult: boolean } {
  const prompt = options.prompt;
  const at = prompt.findLastIndex((m) => m.role === "user");
  const user = prompt[at];
  const text =
    user?.role === "user" ? user.content.map((p) => (p.type === "text" ? p.text : "")).join("") : "";
  return { text, toolResult: prompt.slice(at + 1).some((m) => m.role === "tool") };
}

/** Waits `ms`, or rejects when the call is aborted (a stopped turn). */
function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      reject(signal.reason);
    });
  });
}

/**
 * A scripted model: "pay" asks for the `charge` tool, then answers with what it returned; "slow …" thinks
 * for a minute (or until aborted); "wait N …" thinks N ms; anything else is echoed.
 */
const scripted: LanguageModelV3 = {
  specificationVersion: "v3",
  provider: "e2e",
  modelId: "scripted",
  supportedUrls: {},
  async doGenerate(options) {
    const { text, toolResult } = lastTurn(options);
    const usage = {
      inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
      outputTokens: { total: 1, text: 1, reasoning: undefined },
    };
    const answer = (said: string) => ({
      content: [{ type: "text" as const, text: said }],
      finishReason: { unified: "stop" as const, raw: "stop" },
      usage,
      warnings: [],
    });
    if (text === "pay" && !toolResult)
      return {
        content: [{ type: "tool-call" as const, toolCallId: "call-charge", toolName: "charge", input: "{}" }],
        finishReason: { unified: "tool-calls" as const, raw: "tool_calls" },
        usage,
        warnings: [],
      };
    if (text === "pay") return answer("charge answered");
    if (text.startsWith("slow")) await pause(60_000, options.abortSignal);
    const wait = /^wait (\d+)/.exec(text);
    if (wait) await pause(Number(wait[1]), options.abortSignal);
    return answer(`echo: ${text}`);
  },
  async doStream() {
    throw new Error("the e2e model does not stream");
  },
};

/** Charges by calling the test's counter: not idempotent, so a resumed turn never calls it again. */
const charge = functionTool({
  name: "charge",
  description: "Charges the card once",
  parameters: z.object({}),
  execute: async (_args, ctx) => {
    const url = ctx.invocation.services.env.COUNTER_URL;
    const res = await fetch(`${url}/hit`, ctx.abortSignal ? { signal: ctx.abortSignal } : {});
    return { charged: await res.text() };
  },
});

const agent = () => new LlmAgent({ name: "root", model: scripted, tools: [charge] });

export default createWorker({
  apps: [
    defineApp({ name: "durable", rootAgent: agent() }),
    defineApp({ name: "queued", rootAgent: agent(), doubleTexting: "enqueue" }),
    defineApp({ name: "interrupting", rootAgent: agent(), doubleTexting: "interrupt" }),
  ],
});
