import { BatonError } from "../../core/errors.js";
import type { LiveConnectRequest, LiveModel } from "../../core/live-model.js";
import { GeminiLiveConnection } from "./gemini-connection.js";
import { bidiUrl, openLiveSocket } from "./live-socket.js";
import { setupMessage } from "./setup-message.js";

/** Options of {@link geminiLiveModel}. */
export interface GeminiLiveOptions {
  /** A Gemini API key (`GOOGLE_GENERATIVE_AI_API_KEY`); sent as `x-goog-api-key`, never in the URL. */
  apiKey: string;
  /** Replaces `https://generativelanguage.googleapis.com` (a proxy, a test server); a trailing `/v1beta` is dropped. */
  baseUrl?: string | undefined;
  /** A fetch that opens WebSockets (`Upgrade: websocket`, `response.webSocket`): workerd's by default. */
  fetch?: typeof fetch | undefined;
  /**
   * Turn Gemini's voice activity detection off, so the caller's `sendActivityStart`/`sendActivityEnd` mark
   * the turns (Gemini refuses those marks while its own detection is on).
   */
  manualActivityDetection?: boolean | undefined;
  /** How long Gemini may take to answer the setup before `connect` rejects (30 s). */
  setupTimeoutMs?: number | undefined;
}

const SETUP_TIMEOUT_MS = 30_000;

/**
 * Gemini's Live API (`BidiGenerateContent`) as a {@link LiveModel}, over a WebSocket of Baton's own
 * that runs in workerd (decision 056). `connect` resolves once Gemini accepted the setup.
 * @example
 * import { geminiLiveModel } from "@baton-agents/core/models/google";
 * const model = geminiLiveModel("gemini-live-2.5-flash-preview", { apiKey: env.GOOGLE_GENERATIVE_AI_API_KEY });
 */
export function geminiLiveModel(modelId: string, options: GeminiLiveOptions): LiveModel {
  const url = bidiUrl(options.baseUrl);
  return {
    name: modelId,
    async connect(request: LiveConnectRequest, signal?: AbortSignal): Promise<GeminiLiveConnection> {
      signal?.throwIfAborted();
      const fetcher = options.fetch ?? globalThis.fetch;
      const socket = await openLiveSocket(url, options.apiKey, fetcher, signal);
      const connection = new GeminiLiveConnection(socket, modelId);
      const abort = () => connection.fail(signal?.reason);
      signal?.addEventListener("abort", abort, { once: true });
      const limit = options.setupTimeoutMs ?? SETUP_TIMEOUT_MS;
      const timer = setTimeout(
        () =>
          connection.fail(
            new BatonError("MODEL_TIMEOUT", `Gemini Live did not accept the setup in ${limit} ms.`),
          ),
        limit,
      );
      try {
        connection.sendSetup(setupMessage(modelId, request, options.manualActivityDetection === true));
        await connection.ready;
      } finally {
        clearTimeout(timer);
      }
      // After setup an abort ends the session: `receive()` finishes, sends are refused.
      signal?.removeEventListener("abort", abort);
      signal?.addEventListener("abort", () => void connection.close(), { once: true });
      return connection;
    },
  };
}
