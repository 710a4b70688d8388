import type { Content } from "../../core/content.js";
import type { LiveResponse } from "../../core/live-model.js";
import type { ServerMessage } from "./server-message.js";

type Transcript = { text?: string | undefined; finished?: boolean | undefined };

/**
 * Gemini's server messages as ADK's live `LlmResponse`s (ADK's `LiveResponseAggregator`): streamed text
 * comes as `partial` pieces, then once whole (not partial) when the turn completes, is interrupted or a
 * tool call follows; transcripts likewise, the whole utterance marked `finished`. A tool call is answered
 * at once, as ADK Python does, with Gemini's call ids kept (the tool responses must name them).
 */
export class LiveResponses {
  private text = "";
  private thought = false;
  private heard = "";
  private said = "";

  read(message: ServerMessage): LiveResponse[] {
    const out: LiveResponse[] = [];
    if (message.usageMetadata) out.push({ usageMetadata: message.usageMetadata });
    const server = message.serverContent;
    if (server) {
      const parts = server.modelTurn?.parts ?? [];
      if (parts.length > 0) out.push(...this.modelTurn({ role: server.modelTurn?.role ?? "model", parts }));
      if (server.inputTranscription) out.push(...this.transcript("input", server.inputTranscription));
      if (server.outputTranscription) out.push(...this.transcript("output", server.outputTranscription));
      if (server.interrupted || server.turnComplete || server.generationComplete)
        out.push(...this.finishTranscripts());
      if (server.turnComplete || server.interrupted) out.push(...this.flushText());
      if (server.interrupted) out.push({ interrupted: true });
      if (server.turnComplete)
        out.push({
          turnComplete: true,
          ...(server.groundingMetadata ? { groundingMetadata: server.groundingMetadata } : {}),
        });
    }
    if (message.toolCall) {
      out.push(...this.flushText());
      const parts = (message.toolCall.functionCalls ?? []).map((functionCall) => ({ functionCall }));
      if (parts.length > 0) out.push({ content: { role: "model", parts } });
    }
    if (message.toolCallCancellation)
      out.push({ customMetadata: { toolCallCancellation: { ids: message.toolCallCancellation.ids ?? [] } } });
    const update = message.sessionResumptionUpdate;
    if (update)
      out.push({
        liveSessionResumptionUpdate: {
          ...(update.newHandle ? { newHandle: update.newHandle } : {}),
          ...(update.resumable !== undefined ? { resumable: update.resumable } : {}),
        },
      });
    if (message.goAway)
      out.push({ goAway: message.goAway.timeLeft ? { timeLeft: message.goAway.timeLeft } : {} });
    return out;
  }

  /** Whatever is still held when the session ends: text the model streamed without completing its turn. */
  end(): LiveResponse[] {
    return [...this.finishTranscripts(), ...this.flushText()];
  }

  private modelTurn(content: Content): LiveResponse[] {
    const out: LiveResponse[] = [];
    let streamed = false;
    for (const part of content.parts ?? []) {
      if (part.text === undefined || part.text === "") continue;
      const thought = part.thought === true;
      if (this.text && thought !== this.thought) out.push(...this.flushText());
      this.text += part.text;
      this.thought = thought;
      streamed = true;
    }
    out.push(streamed ? { content, partial: true } : { content });
    return out;
  }

  private flushText(): LiveResponse[] {
    if (!this.text) return [];
    const part = this.thought ? { text: this.text, thought: true } : { text: this.text };
    this.text = "";
    this.thought = false;
    return [{ content: { role: "model", parts: [part] } }];
  }

  private transcript(which: "input" | "output", piece: Transcript): LiveResponse[] {
    const out: LiveResponse[] = [];
    if (piece.text) {
      if (which === "input") this.heard += piece.text;
      else this.said += piece.text;
      out.push(this.transcription(which, { text: piece.text, finished: false }, true));
    }
    if (piece.finished) out.push(...this.finishTranscripts(which));
    return out;
  }

  private finishTranscripts(only?: "input" | "output"): LiveResponse[] {
    const out: LiveResponse[] = [];
    if (this.heard && only !== "output") {
      out.push(this.transcription("input", { text: this.heard, finished: true }, false));
      this.heard = "";
    }
    if (this.said && only !== "input") {
      out.push(this.transcription("output", { text: this.said, finished: true }, false));
      this.said = "";
    }
    return out;
  }

  private transcription(
    which: "input" | "output",
    value: { text: string; finished: boolean },
    partial: boolean,
  ): LiveResponse {
    const response: LiveResponse =
      which === "input" ? { inputTranscription: value } : { outputTranscription: value };
    if (partial) response.partial = true;
    return response;
  }
}
