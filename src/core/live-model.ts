import type { Content, Part } from "./content.js";
import type { GenerateContentConfig } from "./generate-content-config.js";
import type { LlmResponse, ToolDeclaration } from "./llm.js";

/**
 * The live model port (issue 46): a bidirectional model session, as ADK's `BaseLlm.connect` and
 * `BaseLlmConnection` (read ADK TS 2.0's `models/base_llm_connection.d.ts` for the facts). One connection
 * per live call; the live runner sends the agent's history first, then the caller's input as it arrives,
 * and reads the model's answers as they come.
 */
export interface LiveModel {
  /** The model's name as events and errors report it (`gemini-live-2.5-flash`, `demo-live`). */
  readonly name: string;
  /** Opens a live session for one agent's turn(s); rejects (a `ModelError` where it can) if it cannot. */
  connect(request: LiveConnectRequest, signal?: AbortSignal): Promise<LiveConnection>;
}

/** What a live session is opened with (ADK's `LlmRequest` plus `RunConfig`'s live settings). */
export interface LiveConnectRequest {
  /** The system instruction, already joined (empty for none). */
  systemInstruction: string;
  /** Function tools the model may call (`transfer_to_agent` among them when the agent may transfer). */
  tools: ToolDeclaration[];
  /** Sampling settings from the agent's `generateContentConfig`. */
  config: GenerateContentConfig;
  /** `["TEXT"]` or `["AUDIO"]` (ADK's `response_modalities`; the query's `modalities`). */
  responseModalities: ("TEXT" | "AUDIO")[];
  /** A handle the model gave in an earlier `sessionResumption` update, to resume server-side state. */
  resumptionHandle?: string;
  /** Ask for session resumption updates (`enable_session_resumption`). */
  sessionResumption?: boolean;
  /** Transcribe the caller's audio / the model's audio into text (ADK's input/output transcription). */
  inputTranscription?: boolean;
  outputTranscription?: boolean;
  /** ADK 2.x options, honoured where the model can: `proactive_audio`, `enable_affective_dialog`. */
  proactiveAudio?: boolean;
  affectiveDialog?: boolean;
  /** A voice name for audio answers, when the model offers voices. */
  voiceName?: string;
}

/** Audio or a video frame, as genai's `Blob` (a part's `inlineData`). */
export type LiveBlob = NonNullable<Part["inlineData"]>;

/** One live session with a model. Every method may be called while `receive()` is being read. */
export interface LiveConnection {
  /** Sends the history (right after connecting); the model answers when the last content is the user's. */
  sendHistory(history: Content[]): Promise<void>;
  /** Sends a whole content: user text (the model answers at once) or function responses (all parts). */
  sendContent(content: Content): Promise<void>;
  /** Sends a chunk of audio or a video frame in real time (base64 `data`, e.g. `audio/pcm;rate=16000`). */
  sendRealtime(blob: LiveBlob): Promise<void>;
  /** Marks where the caller starts and stops speaking, for models with manual activity detection. */
  sendActivityStart(): Promise<void>;
  sendActivityEnd(): Promise<void>;
  /** The model's answers as they come; ends when the session closes. */
  receive(): AsyncIterable<LiveResponse>;
  /** Closes the session (idempotent). */
  close(): Promise<void>;
}

/** One answer from a live model: an `LlmResponse` plus the live-only fields of ADK's `LlmResponse`. */
export interface LiveResponse extends LlmResponse {
  /** The model finished its answer to the last input. */
  turnComplete?: boolean;
  /** The caller spoke over the model, which stopped (audio already sent should be dropped by the client). */
  interrupted?: boolean;
  /** Transcript of the caller's audio (`finished` on the last piece of one utterance). */
  inputTranscription?: { text?: string; finished?: boolean };
  /** Transcript of the model's audio. */
  outputTranscription?: { text?: string; finished?: boolean };
  /** A new resumption handle (`resumable` false: the session cannot be resumed at this point). */
  liveSessionResumptionUpdate?: { newHandle?: string; resumable?: boolean };
  /** The model will close the session soon; reconnect with the latest handle. */
  goAway?: { timeLeft?: string };
}
