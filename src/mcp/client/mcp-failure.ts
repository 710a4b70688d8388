import { ProtocolError, SdkError, SdkErrorCode, SdkHttpError } from "@modelcontextprotocol/client";
import { BatonError } from "../../core/errors.js";

/**
 * An error's message, a JSON-RPC error's as "MCP error <code>: <message>" with the prefix said once:
 * servers built on an SDK's error class send it prefixed already (some more than once), and the v1
 * client prefixed it again.
 */
const messageOf = (error: unknown): string => {
  const message = error instanceof Error ? error.message : String(error);
  if (!(error instanceof ProtocolError)) return message.replace(/^(MCP error -?\d+: )\1+/, "$1");
  return `MCP error ${error.code}: ${message.replace(/^(MCP error -?\d+: )+/, "")}`;
};

/** The HTTP status an SDK transport error carries (Streamable HTTP and SSE errors). */
export function httpStatusOf(error: unknown): number | undefined {
  if (error instanceof SdkHttpError) return error.status;
  if (error instanceof ProtocolError || !(error instanceof Error) || !("code" in error)) return undefined;
  const code = error.code;
  return typeof code === "number" && code >= 100 && code < 600 ? code : undefined;
}

/**
 * Whether the Streamable HTTP connect was refused in a way that means "this server speaks HTTP+SSE":
 * a 4xx, except 401 and 403, which refuse the credential (an OAuth server's answer), not the transport.
 */
export const refusedStreamableHttp = (error: unknown): boolean => {
  const status = error instanceof SdkHttpError ? error.status : undefined;
  return typeof status === "number" && status >= 400 && status < 500 && status !== 401 && status !== 403;
};

/**
 * Whether a connection is still good after `error`: the server answered (a JSON-RPC error, a request
 * that timed out and was canceled) rather than the transport failing, which calls for a new connection.
 */
export const connectionSurvives = (error: unknown): boolean =>
  error instanceof ProtocolError || (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout);

/** SDK failures that mean the server answered something that is not MCP. */
const GARBLED: ReadonlySet<string> = new Set([
  SdkErrorCode.InvalidResult,
  SdkErrorCode.UnsupportedResultType,
  SdkErrorCode.ClientHttpUnexpectedContent,
]);

/**
 * Any failure of a call to an MCP server as a coded error: `MCP_TIMEOUT` when it did not answer in time,
 * `MCP_UNAVAILABLE` when it could not be reached or answered an HTTP error, `MCP_PROTOCOL_ERROR` when it
 * answered something that is not MCP (a JSON-RPC error, bad JSON, a result of the wrong shape).
 */
export function mcpFailure(error: unknown, url: string, what: string): BatonError {
  if (error instanceof BatonError) return error;
  const detail = messageOf(error);
  if (error instanceof SdkError && error.code === SdkErrorCode.RequestTimeout)
    return new BatonError("MCP_TIMEOUT", `The MCP server at ${url} did not answer ${what} in time.`, {
      cause: error,
    });
  if (error instanceof ProtocolError)
    return new BatonError(
      "MCP_PROTOCOL_ERROR",
      `The MCP server at ${url} answered ${what} with an error: ${detail}`,
      { cause: error },
    );
  const status = httpStatusOf(error);
  if (status !== undefined)
    return new BatonError("MCP_UNAVAILABLE", `The MCP server at ${url} answered HTTP ${status} to ${what}.`, {
      cause: error,
      upstreamStatus: status,
    });
  const garbled =
    error instanceof SyntaxError ||
    (error instanceof SdkError && GARBLED.has(error.code)) ||
    (error instanceof Error && error.name.endsWith("ZodError"));
  if (garbled)
    return new BatonError(
      "MCP_PROTOCOL_ERROR",
      `The MCP server at ${url} answered ${what} with something that is not MCP: ${detail}`,
      { cause: error },
    );
  return new BatonError(
    "MCP_UNAVAILABLE",
    `The MCP server at ${url} could not be reached for ${what}: ${detail}`,
    { cause: error },
  );
}
