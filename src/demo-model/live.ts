import type { Content, Part } from "../core/content.js";
import type {
  LiveBlob,
  LiveConnection,
  LiveConnectRequest,
  LiveModel,
  LiveResponse,
} from "../core/live-model.js";
import { toCallOptions } from "../models/convert.js";
import { chunksOf } from "./model.js";
import { demoReply } from "./script.js";

/** The caller's audio the demo answers once it has heard this much (16 kHz 16-bit mono: 1.5 s). */
export const DEMO_AUDIO_TURN_BYTES = 48_000;
/** The demo's spoken answers: 24 kHz 16-bit mono PCM, as Gemini Live sends audio. */
export const DEMO_AUDIO_MIME = "audio/pcm;rate=24000";
const RATE = 24_000;

/**
 * The `demo:` live model: offline, scripted by the same policy as the `demo:` model (`demoReply`), so a live
 * call transfers and calls tools as `/run` does. It answers a whole user content, function responses, and
 * (since it cannot hear) every `DEMO_AUDIO_TURN_BYTES` of the caller's audio or an activity end, as though
 * the caller said "(n s of audio)". With `AUDIO` it speaks a short tone per answer chunk and gives the text
 * as the output transcription; with `TEXT` it answers in text, partial chunks first.
 */
export function demoLiveModel(modelId: string): LiveModel {
  return {
    name: modelId === "" ? "demo-live" : `demo-live:${modelId}`,
    connect: async (request) => new DemoLiveConnection(request),
  };
}

class DemoLiveConnection implements LiveConnection {
  readonly #request: LiveConnectRequest;
  readonly #contents: Content[] = [];
  readonly #queue: LiveResponse[] = [];
  #wake: (() => void) | undefined;
  #closed = false;
  #heard = 0;

  constructor(request: LiveConnectRequest) {
    this.#request = request;
  }

  async sendHistory(history: Content[]): Promise<void> {
    this.#contents.push(...history);
    if (history.at(-1)?.role === "user") this.#answer();
  }

  async sendContent(content: Content): Promise<void> {
    this.#contents.push({ role: content.role ?? "user", parts: content.parts ?? [] });
    this.#answer();
  }

  async sendRealtime(blob: LiveBlob): Promise<void> {
    if (!blob.mimeType.startsWith("audio/")) return;
    this.#heard += Math.floor(((blob.data ?? "").length * 3) / 4);
    if (this.#heard >= DEMO_AUDIO_TURN_BYTES) this.#answerAudio();
  }

  async sendActivityStart(): Promise<void> {
    // The demo answers at the activity's end; its start asks nothing of it.
  }

  async sendActivityEnd(): Promise<void> {
    if (this.#heard > 0) this.#answerAudio();
  }

  async *receive(): AsyncIterable<LiveResponse> {
    while (true) {
      const next = this.#queue.shift();
      if (next) {
        yield next;
        continue;
      }
      if (this.#closed) return;
      await new Promise<void>((resolve) => {
        this.#wake = resolve;
      });
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    this.#notify();
  }

  #push(...responses: LiveResponse[]): void {
    if (this.#closed) return;
    this.#queue.push(...responses);
    this.#notify();
  }

  #notify(): void {
    const wake = this.#wake;
    this.#wake = undefined;
    wake?.();
  }

  /** What the caller said, as far as the demo can tell: how long they spoke. */
  #answerAudio(): void {
    const seconds = (this.#heard / 32_000).toFixed(1);
    this.#heard = 0;
    const said = `(${seconds} s of audio)`;
    this.#push({ inputTranscription: { text: said, finished: true } });
    this.#contents.push({ role: "user", parts: [{ text: said }] });
    this.#answer();
  }

  #answer(): void {
    const { systemInstruction, tools } = this.#request;
    const reply = demoReply(
      toCallOptions({ systemInstruction, contents: this.#contents, tools, config: {} }),
    );
    if (reply.kind === "tool-call") {
      const call: Part = { functionCall: { name: reply.toolName, args: reply.input } };
      this.#contents.push({ role: "model", parts: [call] });
      this.#push({ content: { role: "model", parts: [call] } }, { turnComplete: true });
      return;
    }
    this.#contents.push({ role: "model", parts: [{ text: reply.text }] });
    const chunks = chunksOf(reply.text);
    if (this.#request.responseModalities.includes("AUDIO")) {
      this.#push(
        ...chunks.flatMap((chunk, i): LiveResponse[] => [
          { content: { role: "model", parts: [{ inlineData: tone(i) }] } },
          { outputTranscription: { text: chunk, finished: false }, partial: true },
        ]),
        { outputTranscription: { text: reply.text, finished: true } },
        { turnComplete: true },
      );
      return;
    }
    this.#push(
      ...chunks.map(
        (chunk): LiveResponse => ({ content: { role: "model", parts: [{ text: chunk }] }, partial: true }),
      ),
      { content: { role: "model", parts: [{ text: reply.text }] } },
      { turnComplete: true },
    );
  }
}

/** A fifth of a second of a soft tone (a different pitch per chunk), base64 PCM. */
function tone(index: number): LiveBlob {
  const samples = RATE / 5;
  const pcm = new Uint8Array(samples * 2);
  const view = new DataView(pcm.buffer);
  const hz = 440 + 110 * (index % 4);
  for (let i = 0; i < samples; i++) {
    const fade = Math.min(1, i / 480, (samples - i) / 480);
    view.setInt16(i * 2, Math.round(Math.sin((2 * Math.PI * hz * i) / RATE) * 6_000 * fade), true);
  }
  let binary = "";
  for (const byte of pcm) binary += String.fromCharCode(byte);
  return { mimeType: DEMO_AUDIO_MIME, data: btoa(binary) };
}
