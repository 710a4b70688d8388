import { A2A_VERSION_HEADER, formatSSEEvent, SSE_HEADERS } from "@a2a-js/sdk";
import { LegacyJsonRpcTransportHandler } from "@a2a-js/sdk/compat/v0_3/server";
import { A2A_ERROR_CODE, ContentTypeNotSupportedError, toJsonRpcError } from "@a2a-js/sdk/errors";
import { JsonRpcTransportHandler, ServerCallContext, validateVersion } from "@a2a-js/sdk/server";
import * as z from "zod";
import { guardJson, type JsonRefusal } from "../../core/json-guard.js";
import { shapeProblem } from "../../core/safe-shape.js";
import type { BatonA2aRequestHandler } from "./request-handler.js";
import { checkParams, STREAMING_METHODS, V1_METHODS } from "./rpc-params.js";
import { sseResponse } from "./sse-stream.js";

/** Requests larger than this are refused before they are parsed. */
export const MAX_A2A_BODY_BYTES = 1024 * 1024;

type RpcId = string | number | null;

/** A JSON-RPC 2.0 request envelope (JSON-RPC §4): the transport handlers check the params. */
const EnvelopeSchema = z.object({
  jsonrpc: z.literal("2.0"),
  method: z.string().min(1),
  id: z.union([z.string(), z.number().int(), z.null()]).optional(),
  params: z.unknown().optional(),
});

const rpcError = (id: RpcId, code: number, message: string, status = 200): Response =>
  Response.json({ jsonrpc: "2.0", id, error: { code, message } }, { status });

const idOf = (body: unknown): RpcId => {
  const parsed = z.object({ id: z.union([z.string(), z.number(), z.null()]) }).safeParse(body);
  return parsed.success ? parsed.data.id : null;
};

/**
 * One JSON-RPC call to an app's A2A endpoint. The `A2A-Version` header picks the method family; without it
 * the method's name does. Parameters are checked against the method's definition (`-32602`), then the
 * SDK's transport handlers decode them and shape results and errors. Every refusal is a JSON-RPC error with
 * the code the spec names, answered before anything runs.
 */
export async function handleJsonRpc(request: Request, handler: BatonA2aRequestHandler): Promise<Response> {
  const size = Number(request.headers.get("content-length") ?? "0");
  if (size > MAX_A2A_BODY_BYTES) return tooLarge();
  const contentType = request.headers.get("content-type")?.split(";")[0]?.trim().toLowerCase();
  if (contentType && contentType !== "application/json" && contentType !== "application/a2a+json") {
    const error = new ContentTypeNotSupportedError(
      `Unsupported Content-Type "${contentType}"; send application/json.`,
    );
    return Response.json({ jsonrpc: "2.0", id: null, error: toJsonRpcError(error) });
  }
  // The one body guard (core/json-guard.ts): size, JSON, depth and prototype keys before anything walks the
  // body (the SDK's converters recurse per level).
  const guarded = guardJson(await request.text(), { maxBytes: MAX_A2A_BODY_BYTES, where: "request" });
  if (!guarded.ok) return refusedBody(guarded.refusal);
  const body = guarded.value;
  const envelope = EnvelopeSchema.safeParse(body);
  if (!envelope.success)
    return rpcError(
      idOf(body),
      A2A_ERROR_CODE.INVALID_REQUEST,
      "Invalid Request: not a JSON-RPC 2.0 request object.",
    );
  const id = envelope.data.id ?? null;
  const { method } = envelope.data;
  const version = versionOf(request.headers.get(A2A_VERSION_HEADER), method);
  const legacy = version === "0.3";
  const toError = legacy
    ? LegacyJsonRpcTransportHandler.mapToLegacyJSONRPCError
    : JsonRpcTransportHandler.mapToJSONRPCError;
  const refuse = (error: unknown, map = toError) => answer(method, id, map(error));
  try {
    validateVersion(version, await handler.getAgentCard(), "JSONRPC");
  } catch (error) {
    // The spec's own error (1.0 `VersionNotSupportedError`), whichever version the client thought it spoke.
    return refuse(error, JsonRpcTransportHandler.mapToJSONRPCError);
  }
  const invalid = checkParams(method, envelope.data.params);
  if (invalid) return refuse(invalid);
  const context = new ServerCallContext({ requestedVersion: version });
  const transport = legacy
    ? new LegacyJsonRpcTransportHandler(handler)
    : new JsonRpcTransportHandler(handler);
  const result = await transport.handle(legacy ? blockingByDefault(envelope.data) : envelope.data, context);
  if (!isStream(result)) return answer(method, id, result);
  return streamed(result, id, toError);
}

/**
 * The protocol version of a call: the `A2A-Version` header's major.minor when given (a patch is ignored);
 * else the method's family, since no 0.3 method has a 1.0 name (`SendMessage` is 1.0, `message/send` 0.3).
 */
function versionOf(header: string | null, method: string): string {
  if (header) return /^(\d+\.\d+)\.\d+$/.exec(header.trim())?.[1] ?? header.trim();
  return V1_METHODS.has(method) ? "1.0" : "0.3";
}

/**
 * A JSON-RPC answer that is not a stream: as JSON, or, for a streaming method (its error before any
 * event), as an SSE stream of that one response, the media type a streaming client waits for.
 */
function answer(method: string, id: RpcId, answer: unknown): Response {
  const body = isRpcResponse(answer) ? answer : { jsonrpc: "2.0", id, error: answer };
  if (!STREAMING_METHODS.has(method)) return Response.json(body);
  return new Response(formatSSEEvent(body), { headers: SSE_HEADERS });
}

const isRpcResponse = (value: unknown): boolean =>
  typeof value === "object" && value !== null && "jsonrpc" in value;

/**
 * A 0.3 `message/send` whose configuration leaves out `blocking` is blocking, as the Python SDK reads it
 * (a2a-js's 0.3 translation would make it return at once).
 */
function blockingByDefault(request: z.infer<typeof EnvelopeSchema>): z.infer<typeof EnvelopeSchema> {
  const params = SendParamsSchema.safeParse(request.params);
  if (
    request.method !== "message/send" ||
    !params.success ||
    params.data.configuration.blocking !== undefined
  )
    return request;
  return {
    ...request,
    params: { ...params.data, configuration: { ...params.data.configuration, blocking: true } },
  };
}

const SendParamsSchema = z.looseObject({
  configuration: z.looseObject({ blocking: z.boolean().optional() }),
});

/**
 * A body the guard refused, as the JSON-RPC error for it: over the size, 413; not JSON, `-32700` Parse
 * error; a hostile shape (deeper than 64 levels, a `__proto__`, `constructor` or `prototype` key) in
 * `params`, `-32602` Invalid params; anywhere else, `-32600` Invalid Request.
 */
function refusedBody(refusal: JsonRefusal): Response {
  if (refusal.reason === "size") return tooLarge();
  if (refusal.reason !== "shape")
    return rpcError(null, A2A_ERROR_CODE.PARSE_ERROR, "Parse error: the body is not valid JSON.");
  const { params, ...envelope } = isRecord(refusal.parsed) ? refusal.parsed : { params: undefined };
  const id = idOf(refusal.parsed);
  if (refusal.path[0] !== "params") {
    const message = shapeProblem(envelope, "request")?.message ?? refusal.message;
    return rpcError(id, A2A_ERROR_CODE.INVALID_REQUEST, `Invalid Request: ${message}`);
  }
  const message = shapeProblem(params, "params")?.message ?? refusal.message;
  return rpcError(id, A2A_ERROR_CODE.INVALID_PARAMS, `Invalid params: ${message}`);
}

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The 413 for a body over `MAX_A2A_BODY_BYTES`, as a JSON-RPC error. */
export function tooLarge(): Response {
  const message = `Invalid Request: the body is larger than ${MAX_A2A_BODY_BYTES} bytes.`;
  return rpcError(null, A2A_ERROR_CODE.INVALID_REQUEST, message, 413);
}

const isStream = (value: unknown): value is AsyncGenerator<unknown> =>
  typeof value === "object" && value !== null && Symbol.asyncIterator in value;

/**
 * A streaming result as SSE, one JSON-RPC response per `data:` frame; an error, before the first event or
 * after it, is the stream's last frame (A2A 1.0 §9.4.2: the client reads errors from the stream).
 */
function streamed(
  events: AsyncGenerator<unknown>,
  id: RpcId,
  toError: (error: unknown) => unknown,
): Promise<Response> {
  const errorFrame = (error: unknown) => formatSSEEvent({ jsonrpc: "2.0", id, error: toError(error) });
  return sseResponse(events, {
    frame: (value) => formatSSEEvent(value),
    failedBeforeFirst: (error) => new Response(errorFrame(error), { headers: SSE_HEADERS }),
    failedAfterFirst: errorFrame,
  });
}
