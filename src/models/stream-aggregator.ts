import type {
  LanguageModelV3FinishReason,
  LanguageModelV3StreamPart,
  LanguageModelV3Usage,
  SharedV3ProviderMetadata,
} from "@ai-sdk/provider";
import type { Part } from "../core/content.js";
import type { LlmResponse } from "../core/llm.js";
import {
  finalResponse,
  groundingMetadataOf,
  partFromOutput,
  thoughtSignatureOf,
} from "./convert-response.js";

/**
 * Folds one `doStream` stream into ADK responses: each text or reasoning delta gives a partial response
 * holding just that chunk; `result()` gives the one aggregated response (text blocks, reasoning and tool
 * calls in stream order). An `error` part is thrown.
 */
export class StreamAggregator {
  private readonly parts: Part[] = [];
  private readonly open = new Map<string, Part>();
  private finishReason: LanguageModelV3FinishReason = { unified: "stop", raw: undefined };
  private usage: LanguageModelV3Usage | undefined;
  private groundingMetadata: Record<string, unknown> | undefined;

  constructor(private modelVersion: string) {}

  /** Takes one stream part; returns the partial response to yield, if any. */
  add(part: LanguageModelV3StreamPart): LlmResponse | undefined {
    switch (part.type) {
      case "text-start":
      case "reasoning-start":
        this.block(part.id, part.type === "reasoning-start", part.providerMetadata);
        return undefined;
      case "text-delta":
      case "reasoning-delta":
        return this.delta(part.id, part.type === "reasoning-delta", part.delta, part.providerMetadata);
      case "text-end":
      case "reasoning-end":
        this.sign(this.open.get(part.id), part.providerMetadata);
        this.open.delete(part.id);
        return undefined;
      case "tool-call":
      case "tool-result":
      case "file": {
        const converted = partFromOutput(part);
        if (converted) this.parts.push(converted);
        return undefined;
      }
      case "response-metadata":
        if (part.modelId) this.modelVersion = part.modelId;
        return undefined;
      case "finish":
        this.finishReason = part.finishReason;
        this.usage = part.usage;
        this.groundingMetadata = groundingMetadataOf(part.providerMetadata);
        return undefined;
      case "error":
        throw part.error;
      default:
        return undefined;
    }
  }

  /** The aggregated, non-partial response. */
  result(): LlmResponse {
    const parts = this.parts.filter((p) => p.text !== "" || p.thoughtSignature !== undefined);
    return finalResponse({
      parts,
      finishReason: this.finishReason,
      usage: this.usage,
      modelVersion: this.modelVersion,
      streaming: true,
      groundingMetadata: this.groundingMetadata,
    });
  }

  private block(id: string, thought: boolean, metadata: SharedV3ProviderMetadata | undefined): Part {
    const part: Part = thought ? { text: "", thought: true } : { text: "" };
    this.sign(part, metadata);
    this.parts.push(part);
    this.open.set(id, part);
    return part;
  }

  private delta(
    id: string,
    thought: boolean,
    text: string,
    metadata: SharedV3ProviderMetadata | undefined,
  ): LlmResponse | undefined {
    const part = this.open.get(id) ?? this.block(id, thought, metadata);
    part.text = `${part.text ?? ""}${text}`;
    this.sign(part, metadata);
    if (text === "") return undefined;
    const chunk: Part = thought ? { text, thought: true } : { text };
    return { content: { role: "model", parts: [chunk] }, partial: true, modelVersion: this.modelVersion };
  }

  private sign(part: Part | undefined, metadata: SharedV3ProviderMetadata | undefined): void {
    const signature = thoughtSignatureOf(metadata);
    if (part && signature !== undefined) part.thoughtSignature = signature;
  }
}
