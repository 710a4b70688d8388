import { BatonError, type ModelErrorCode } from "../../core/errors.js";
import { redact } from "../../core/redact.js";

/** The part of a WebSocket the Gemini connection uses: workerd's `Response.webSocket` has it. */
export interface LiveSocket {
  accept(): void;
  /** `"blob"` by default in workerd as in browsers; set to `"arraybuffer"` so binary frames read at once. */
  binaryType?: string;
  send(message: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: string, listener: (event: never) => void): void;
}

const GEMINI_ORIGIN = "https://generativelanguage.googleapis.com";
const BIDI_PATH = "/ws/google.ai.generativelanguage.v1beta.GenerativeService.BidiGenerateContent";

/**
 * The BidiGenerateContent URL. `baseUrl` replaces the origin; an API version at its end
 * (`GOOGLE_GENERATIVE_AI_BASE_URL` is often `…/v1beta`) is dropped, since the socket path names its own.
 */
export function bidiUrl(baseUrl: string | undefined): string {
  const base = (baseUrl ?? GEMINI_ORIGIN)
    .replace(/^ws(s?):\/\//i, "http$1://")
    .replace(/\/+$/, "")
    .replace(/\/v1(alpha|beta)?$/, "");
  return `${base}${BIDI_PATH}`;
}

const isSocket = (value: unknown): value is LiveSocket =>
  typeof value === "object" &&
  value !== null &&
  "accept" in value &&
  typeof value.accept === "function" &&
  "send" in value &&
  typeof value.send === "function";

function codeForStatus(status: number): ModelErrorCode {
  if (status === 401 || status === 403) return "MODEL_AUTH_FAILED";
  if (status === 404) return "MODEL_NOT_FOUND";
  if (status === 429) return "MODEL_RATE_LIMITED";
  if (status >= 500) return "MODEL_UNAVAILABLE";
  return "MODEL_BAD_REQUEST";
}

/** Opens the socket the way workerd does it: a `fetch` with `Upgrade: websocket`, then `accept()`. */
export async function openLiveSocket(
  url: string,
  apiKey: string,
  fetcher: typeof fetch,
  signal: AbortSignal | undefined,
): Promise<LiveSocket> {
  let response: Response;
  try {
    response = await fetcher(url, {
      headers: { Upgrade: "websocket", "x-goog-api-key": apiKey },
      ...(signal ? { signal } : {}),
    });
  } catch (error) {
    if (signal?.aborted) throw error;
    const detail = error instanceof Error ? error.message : String(error);
    throw new BatonError("MODEL_UNAVAILABLE", `Gemini Live could not be reached: ${redact(detail)}`, {
      cause: error,
    });
  }
  const socket: unknown = "webSocket" in response ? response.webSocket : undefined;
  if (response.status === 101 && isSocket(socket)) {
    socket.accept();
    if ("binaryType" in socket) socket.binaryType = "arraybuffer";
    return socket;
  }
  if (response.status === 101 || response.ok) {
    throw new BatonError(
      "MODEL_CONFIG",
      "Gemini Live needs a fetch that opens WebSockets (workerd's does; elsewhere pass `fetch` in the options).",
    );
  }
  const body = redact((await response.text().catch(() => "")).slice(0, 300));
  throw new BatonError(
    codeForStatus(response.status),
    `Gemini Live refused the connection (HTTP ${response.status})${body ? `: ${body}` : ""}`,
    { upstreamStatus: response.status },
  );
}

/**
 * The code of a socket Gemini closed: Gemini refuses a setup or ends a session with a close code and a
 * reason (1007 for a bad key or argument, 1008 for a model it does not serve live, 1011 for its own faults).
 */
export function closeErrorCode(code: number, reason: string): ModelErrorCode {
  if (/api key|permission|unauthenticated/i.test(reason)) return "MODEL_AUTH_FAILED";
  if (/quota|resource.?exhausted|rate limit/i.test(reason)) return "MODEL_RATE_LIMITED";
  if (/not found|not supported for bidiGenerateContent/i.test(reason)) return "MODEL_NOT_FOUND";
  if (code === 1007 || code === 1008) return "MODEL_BAD_REQUEST";
  if (code === 1006 || code === 1011 || code === 1012 || code === 1013 || code === 1014)
    return "MODEL_UNAVAILABLE";
  return "MODEL_ERROR";
}

/** The text of a close, keys masked (Gemini's reasons sometimes quote the request). */
export const closeMessage = (code: number, reason: string): string =>
  `Gemini Live closed the session (code ${code})${reason ? `: ${redact(reason)}` : ""}`;
