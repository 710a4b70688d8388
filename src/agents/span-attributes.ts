import type { Content } from "../core/content.js";
import { logOf } from "../core/content-log.js";
import type { LlmRequest, LlmResponse, ModelSpec } from "../core/llm.js";
import { memoized } from "../core/memo.js";
import { ATTR, type SpanAttributes, TRACE_LIMITS } from "../core/trace.js";
import type { BaseAgent } from "./base-agent.js";
import type { InvocationContext } from "./invocation-context.js";

/** What every span of an invocation carries: ADK's ids, so the dev UI can group and find them. */
const invocationAttributes = (ctx: InvocationContext): SpanAttributes => ({
  [ATTR.invocationId]: ctx.invocationId,
  [ATTR.sessionId]: ctx.session.id,
  [ATTR.conversation]: ctx.session.id,
});

/** `invoke_agent <name>` (ADK's agent span). */
export const agentSpanAttributes = (ctx: InvocationContext, agent: BaseAgent): SpanAttributes => ({
  [ATTR.operation]: "invoke_agent",
  [ATTR.agentName]: agent.name,
  [ATTR.agentDescription]: agent.description,
  // `invocationAttributes`, written out: one object per span, not a second one spread into it.
  [ATTR.invocationId]: ctx.invocationId,
  [ATTR.sessionId]: ctx.session.id,
  [ATTR.conversation]: ctx.session.id,
});

const modelName = (spec: ModelSpec | undefined): { system: string; model: string } => {
  if (spec === undefined) return { system: "none", model: "none" };
  if (typeof spec !== "string") return { system: spec.provider, model: spec.modelId };
  const at = spec.indexOf(":");
  return at < 0 ? { system: spec, model: spec } : { system: spec.slice(0, at), model: spec.slice(at + 1) };
};

const JSON_TEXT = Symbol("logged JSON");

/** A content's JSON; a stored one (history shared between requests) is serialised once (`core/memo.ts`). */
const jsonOf = (content: Content): string => memoized(content, JSON_TEXT, () => JSON.stringify(content));

/** A logged request's opening (its model and config, up to its contents), as last built for one agent. */
interface Opening {
  model: string;
  instruction: string;
  tools: readonly string[];
  text: string;
}

/** Per agent (a few long-lived keys): an agent's instruction and tools rarely change between its turns. */
const openings = new WeakMap<object, Opening>();

const sameNames = (names: readonly string[], tools: LlmRequest["tools"]): boolean =>
  names.length === tools.length && tools.every((t, i) => t.name === names[i]);

/** `{"model":…,"config":{…},"contents":[` for this request: serialised again only when it changed. */
function openingOf(agent: object, model: string, request: LlmRequest): string {
  const kept = openings.get(agent);
  const instruction = request.systemInstruction;
  if (kept?.model === model && kept.instruction === instruction && sameNames(kept.tools, request.tools))
    return kept.text;
  const tools = request.tools.map((t) => t.name);
  const config = { system_instruction: instruction, tools };
  // Without the closing `]}` of its empty contents: each content's JSON is appended to it.
  const text = JSON.stringify({ model, config, contents: [] }).slice(0, -2);
  openings.set(agent, { model, instruction, tools, text });
  return text;
}

/**
 * The request as ADK logs it (`{model, config, contents}` as JSON), serialising only as many contents as
 * the trace keeps: a span costs the same at 10 history messages as at 10,000. Past
 * `TRACE_LIMITS.attributeChars` the text is cut there, ending with how many contents the request had.
 * The text is joined from the kept pieces (the opening, each content's JSON) and a cut one is cut in its
 * last piece only: slicing the whole joined text would copy it into a new string, kept by every trace.
 */
function loggedRequest(agent: object, model: string, request: LlmRequest): string {
  const { contents } = request;
  const opening = openingOf(agent, model, request);
  const tailOfCut = `… (${contents.length} contents; clipped at ${TRACE_LIMITS.attributeChars} chars)`;
  // A history read from a kept log (`core/content-log.ts`) starts with the contents of its last request:
  // once that request's text was cut, a later one's is cut at the same place.
  const log = logOf(contents);
  const kept = log?.derived.get(LOGGED_CUT) as LoggedCut | undefined; // SAFETY: only this function sets the key, to a `LoggedCut`.
  const room = TRACE_LIMITS.attributeChars - tailOfCut.length;
  if (kept?.opening === opening && kept.room === room && contents.length >= kept.taken)
    return kept.text + tailOfCut;
  // How many contents the text takes: as many as start within the limit.
  let length = opening.length;
  let taken = 0;
  for (; taken < contents.length && length <= TRACE_LIMITS.attributeChars; taken++) {
    const content = contents[taken];
    if (content) length += (taken === 0 ? 0 : 1) + jsonOf(content).length;
  }
  const whole = length + 2 <= TRACE_LIMITS.attributeChars;
  const text = joinedTo(whole ? length : room, opening, contents, taken);
  if (whole) return `${text}]}`;
  log?.derived.set(LOGGED_CUT, { opening, room, taken, text });
  return text + tailOfCut;
}

/** The opening and the JSON of the first `taken` contents, comma-separated, cut at `room` characters. */
function joinedTo(room: number, opening: string, contents: readonly Content[], taken: number): string {
  let text = cutTo(room, "", opening);
  for (let i = 0; i < taken && text.length < room; i++) {
    const content = contents[i];
    if (!content) continue;
    if (i > 0) text = cutTo(room, text, ",");
    text = cutTo(room, text, jsonOf(content));
  }
  return text;
}

/** A cut request text of a content log, before its tail: what it was built from and where it was cut. */
interface LoggedCut {
  readonly opening: string;
  readonly room: number;
  /** How many contents it was built from (the log's first ones). */
  readonly taken: number;
  readonly text: string;
}

const LOGGED_CUT = Symbol("logged request cut");

/** `text` and as much of `piece` as fits in `room` characters. */
const cutTo = (room: number, text: string, piece: string): string =>
  text.length + piece.length <= room ? text + piece : text + piece.slice(0, Math.max(0, room - text.length));

/** `call_llm` (operation `generate_content`): the model, the event it makes, and the request as ADK logs it. */
export function modelSpanAttributes(
  ctx: InvocationContext,
  spec: ModelSpec | undefined,
  eventId: string,
  request: LlmRequest,
): SpanAttributes {
  const { system, model } = modelName(spec);
  return {
    [ATTR.operation]: "generate_content",
    [ATTR.system]: system,
    [ATTR.requestModel]: model,
    [ATTR.agentName]: ctx.agent.name,
    [ATTR.eventId]: eventId,
    [ATTR.llmRequest]: loggedRequest(ctx.agent, model, request),
    [ATTR.invocationId]: ctx.invocationId,
    [ATTR.sessionId]: ctx.session.id,
    [ATTR.conversation]: ctx.session.id,
  };
}

/** What the provider answered: tokens in and out from its usage, the finish reason, the response. */
export function modelResponseAttributes(response: LlmResponse): SpanAttributes {
  const attributes: SpanAttributes = {};
  const usage = response.usageMetadata;
  if (typeof usage?.promptTokenCount === "number") attributes[ATTR.inputTokens] = usage.promptTokenCount;
  if (typeof usage?.candidatesTokenCount === "number")
    attributes[ATTR.outputTokens] = usage.candidatesTokenCount;
  if (response.finishReason) attributes[ATTR.finishReasons] = [response.finishReason];
  if (response.modelVersion) attributes[ATTR.responseModel] = response.modelVersion;
  const logged: Record<string, unknown> = {
    content: response.content,
    finish_reason: response.finishReason,
    usage_metadata: response.usageMetadata,
  };
  if (response.errorCode) {
    logged.error_code = response.errorCode;
    logged.error_message = response.errorMessage;
  }
  attributes[ATTR.llmResponse] = JSON.stringify(logged);
  return attributes;
}

/** `execute_tool <name>`. */
export const toolSpanAttributes = (
  ctx: InvocationContext,
  name: string,
  callId: string | undefined,
  args: Record<string, unknown> | undefined,
): SpanAttributes => ({
  [ATTR.operation]: "execute_tool",
  [ATTR.toolName]: name,
  ...(callId ? { [ATTR.toolCallId]: callId } : {}),
  [ATTR.toolArgs]: JSON.stringify(args ?? {}),
  [ATTR.agentName]: ctx.agent.name,
  ...invocationAttributes(ctx),
});
