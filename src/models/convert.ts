import type {
  JSONValue,
  LanguageModelV3CallOptions,
  LanguageModelV3FilePart,
  LanguageModelV3FunctionTool,
  LanguageModelV3Message,
  LanguageModelV3Prompt,
  LanguageModelV3ProviderTool,
  SharedV3ProviderOptions,
} from "@ai-sdk/provider";
import { isJSONValue } from "@ai-sdk/provider";
import type { Content, Part } from "../core/content.js";
import { type ContentLog, logOf } from "../core/content-log.js";
import { deepFreeze } from "../core/frozen.js";
import { type GenerateContentConfig, toJsonSchema, wantsJson } from "../core/generate-content-config.js";
import {
  argumentsSchema,
  type GeminiBuiltInTool,
  type LlmRequest,
  type ToolDeclaration,
} from "../core/llm.js";
import { hasMemo, memoized } from "../core/memo.js";
import { type SignalSource, withLazySignal } from "../core/signal-source.js";
import { hasKeys } from "../core/state.js";

type AssistantPart = Extract<LanguageModelV3Message, { role: "assistant" }>["content"][number];
type UserPart = Extract<LanguageModelV3Message, { role: "user" }>["content"][number];
type ToolPart = Extract<LanguageModelV3Message, { role: "tool" }>["content"][number];

/**
 * Pairs calls and responses that came without ids (Gemini-style history): a call gets a stable
 * synthetic id, and the next id-less response with the same name takes the oldest pending one.
 */
class CallIds {
  private count = 0;
  /** Made at the first id-less call: most histories carry ids, and a prompt is built on every model call. */
  private pending: Map<string, string[]> | undefined;

  forCall(id: string | undefined, name: string): string {
    if (id) return id;
    const minted = `call_${++this.count}`;
    this.pending ??= new Map();
    this.pending.set(name, [...(this.pending.get(name) ?? []), minted]);
    return minted;
  }

  forResponse(id: string | undefined, name: string): string {
    if (id) return id;
    return this.pending?.get(name)?.shift() ?? `call_${++this.count}`;
  }
}

// Gemini 3 rejects replayed function calls without their thought signature; the google provider reads it here.
const signatureOptions = (part: Part): SharedV3ProviderOptions | undefined =>
  part.thoughtSignature === undefined
    ? undefined
    : {
        google: { thoughtSignature: part.thoughtSignature },
        vertex: { thoughtSignature: part.thoughtSignature },
      };

const withOptions = <T extends object>(part: T, options: SharedV3ProviderOptions | undefined): T =>
  options === undefined ? part : { ...part, providerOptions: options };

/** A tool response as JSON: already-JSON values pass, anything else goes through a JSON round trip. */
function jsonOf(value: Record<string, unknown>): JSONValue {
  if (isJSONValue(value)) return value;
  const parsed: unknown = JSON.parse(JSON.stringify(value));
  return isJSONValue(parsed) ? parsed : null;
}

// A file URI that is not a URL cannot be sent; the part is dropped rather than failing the whole call.
function urlOf(uri: string): URL | undefined {
  try {
    return new URL(uri);
  } catch {
    return undefined;
  }
}

function filePart(part: Part): LanguageModelV3FilePart | undefined {
  if (part.inlineData)
    return { type: "file", data: part.inlineData.data, mediaType: part.inlineData.mimeType };
  const url = part.fileData ? urlOf(part.fileData.fileUri) : undefined;
  if (part.fileData && url)
    return { type: "file", data: url, mediaType: part.fileData.mimeType ?? "application/octet-stream" };
  return undefined;
}

function assistantPart(part: Part, ids: CallIds): AssistantPart | undefined {
  const options = signatureOptions(part);
  if (part.functionCall) {
    const { id, name, args } = part.functionCall;
    const call = {
      type: "tool-call" as const,
      toolCallId: ids.forCall(id, name),
      toolName: name,
      input: args ?? {},
    };
    return withOptions(call, options);
  }
  if (part.text !== undefined) {
    const type = part.thought ? ("reasoning" as const) : ("text" as const);
    return part.text || options ? withOptions({ type, text: part.text }, options) : undefined;
  }
  return filePart(part);
}

function assistantParts(parts: Part[], ids: CallIds): AssistantPart[] {
  const out: AssistantPart[] = [];
  for (const part of parts) {
    const converted = assistantPart(part, ids);
    if (converted) out.push(converted);
  }
  return out;
}

/**
 * A user content, appended to `prompt`: text and files become a user message; function responses become a
 * tool message before it. Lists are made only when needed (this runs for every history message).
 */
function pushUserMessages(prompt: LanguageModelV3Prompt, parts: Part[], ids: CallIds): void {
  let results: ToolPart[] | undefined;
  let content: UserPart[] | undefined;
  for (const part of parts) {
    if (part.functionResponse) {
      const { id, name, response } = part.functionResponse;
      const output = { type: "json" as const, value: jsonOf(response) };
      const result = {
        type: "tool-result" as const,
        toolCallId: ids.forResponse(id, name),
        toolName: name,
        output,
      };
      results = results ?? [];
      results.push(result);
      continue;
    }
    const user: UserPart | undefined =
      part.text && !part.thought ? { type: "text", text: part.text } : filePart(part);
    if (user === undefined) continue;
    content = content ?? [];
    content.push(user);
  }
  if (results) prompt.push({ role: "tool", content: results });
  if (content) prompt.push({ role: "user", content });
}

/** Appends one content's messages (none, one, or a tool message and a user message) to `prompt`. */
function pushMessages(prompt: LanguageModelV3Prompt, content: Content, ids: CallIds): void {
  const parts = content.parts ?? [];
  if (content.role === "model") {
    const assistant = assistantParts(parts, ids);
    if (assistant.length > 0) prompt.push({ role: "assistant", content: assistant });
  } else pushUserMessages(prompt, parts, ids);
}

/** A content's messages, kept with a stored content (`core/memo.ts`): a history is shared by every later request. */
const MESSAGES = Symbol("prompt messages");

/** A call or response without an id takes a synthetic one from its place in the prompt: not kept. */
const idsOwn = (content: Content): boolean =>
  (content.parts ?? []).every(
    (p) =>
      (p.functionCall === undefined || Boolean(p.functionCall.id)) &&
      (p.functionResponse === undefined || Boolean(p.functionResponse.id)),
  );

/**
 * What a stored content's messages are kept as: the one message most contents give, or the list. Parts
 * lists are copied to exactly their length first: an array grown by `push` keeps room for 17 items, and
 * kept messages live as long as their stored event.
 */
type KeptMessages = LanguageModelV3Message | readonly LanguageModelV3Message[];

function kept(messages: LanguageModelV3Prompt): KeptMessages {
  for (const message of messages)
    if (Array.isArray(message.content)) (message as { content: unknown[] }).content = message.content.slice(); // SAFETY: the same items, in a message the caller has just built.
  return deepFreeze(messages.length === 1 && messages[0] ? messages[0] : messages.slice());
}

const isList = (messages: KeptMessages): messages is readonly LanguageModelV3Message[] =>
  Array.isArray(messages);

/** The messages of a stored content whose calls carry ids, converted once and frozen; otherwise `undefined`. */
function keptMessages(content: Content): KeptMessages | undefined {
  if (!hasMemo(content)) return undefined;
  return memoized(content, MESSAGES, convertOnce);
}

function convertOnce(content: Content): KeptMessages | undefined {
  if (!idsOwn(content)) return undefined;
  const messages: LanguageModelV3Prompt = [];
  pushMessages(messages, content, new CallIds());
  return kept(messages);
}

/** Appends one content's messages to `prompt`: the kept ones of a stored content, or converted now. */
function appendContent(prompt: LanguageModelV3Prompt, content: Content, ids: CallIds): void {
  const known = keptMessages(content);
  if (known === undefined) pushMessages(prompt, content, ids);
  else if (!isList(known)) prompt.push(known);
  // An index loop: iterating a frozen array is several times slower in V8 (this runs per message).
  else
    for (let i = 0; i < known.length; i++) {
      const message = known[i];
      if (message) prompt.push(message);
    }
}

/** The messages of a content log's contents so far, and where each content's messages end. */
interface LoggedPrompt {
  readonly messages: LanguageModelV3Message[];
  readonly ends: number[];
  readonly ids: CallIds;
}

const LOGGED_PROMPT = Symbol("logged prompt");

/**
 * The messages of the first `count` contents of `log`, converting only those added since the last call:
 * the same messages, in the same order, with the same synthetic call ids, as a whole pass.
 */
function loggedMessages(log: ContentLog, count: number): LanguageModelV3Message[] {
  const found = log.derived.get(LOGGED_PROMPT);
  const logged = (found ?? { messages: [], ends: [], ids: new CallIds() }) as LoggedPrompt; // SAFETY: only this function sets the key, to a `LoggedPrompt`.
  if (found === undefined) log.derived.set(LOGGED_PROMPT, logged);
  for (let i = logged.ends.length; i < count; i++) {
    const content = log.contents[i];
    if (content) appendContent(logged.messages, content, logged.ids);
    logged.ends.push(logged.messages.length);
  }
  return logged.messages.slice(0, count === 0 ? 0 : logged.ends[count - 1]);
}

/**
 * ADK history → AI SDK prompt. Role `model` becomes an assistant message (text, reasoning from
 * `thought` parts, tool calls with the function-call id); other roles become user messages, their
 * function responses a tool message with JSON output. Empty contents and code-execution parts are dropped.
 * A stored content whose calls carry ids is converted once and its (frozen) messages reused; contents read
 * from a content log (an agent's kept history, `core/content-log.ts`) are converted once per log.
 */
export function toPrompt(systemInstruction: string, contents: readonly Content[]): LanguageModelV3Prompt {
  const system: LanguageModelV3Prompt = systemInstruction
    ? [{ role: "system", content: systemInstruction }]
    : [];
  const log = logOf(contents);
  if (log) return system.concat(loggedMessages(log, contents.length));
  const ids = new CallIds();
  const prompt = system;
  for (const content of contents) appendContent(prompt, content, ids);
  return prompt;
}

/** Tool declarations → AI SDK function tools; `parameters` is already JSON Schema. */
export const toTools = (tools: ToolDeclaration[]): LanguageModelV3FunctionTool[] =>
  tools.map((tool) => ({
    type: "function",
    name: tool.name,
    description: tool.description,
    inputSchema: argumentsSchema(tool),
  }));

/** The settings the AI SDK takes as they are, by the same name. */
const SAME_NAME = [
  "temperature",
  "topP",
  "topK",
  "maxOutputTokens",
  "stopSequences",
  "seed",
  "presencePenalty",
  "frequencyPenalty",
] as const;

/** ADK's generation config as AI SDK call settings; JSON mode (a MIME type or a schema) becomes `responseFormat`. */
export function toCallSettings(config: GenerateContentConfig): Partial<LanguageModelV3CallOptions> {
  const settings: Partial<LanguageModelV3CallOptions> = {};
  if (!hasKeys(config)) return settings;
  for (const key of SAME_NAME) if (config[key] !== undefined) Object.assign(settings, { [key]: config[key] });
  if (wantsJson(config)) {
    const schema = config.responseSchema === undefined ? {} : { schema: toJsonSchema(config.responseSchema) };
    settings.responseFormat = { type: "json", ...schema };
  }
  return settings;
}

/** Gemini's built-in tools as the AI SDK Google provider's provider-defined tools (`google.tools.googleSearch({})`…). */
const PROVIDER_TOOL_IDS: Readonly<Record<GeminiBuiltInTool, { id: `google.${string}`; name: string }>> = {
  googleSearch: { id: "google.google_search", name: "google_search" },
  urlContext: { id: "google.url_context", name: "url_context" },
  googleMaps: { id: "google.google_maps", name: "google_maps" },
  codeExecution: { id: "google.code_execution", name: "code_execution" },
};

/** A request's built-in tools, which `@ai-sdk/google` (and Vertex) send as `{"googleSearch": {}}` and so on. */
export const toProviderTools = (builtIns: readonly GeminiBuiltInTool[] = []): LanguageModelV3ProviderTool[] =>
  builtIns.map((builtIn) => {
    // closed key: a `GeminiBuiltInTool`, one of the four by its type.
    const tool = PROVIDER_TOOL_IDS[builtIn];
    return { type: "provider", ...tool, args: {} };
  });

/**
 * The full call options for `doGenerate`/`doStream`: the model is offered tools, never made to use one. Their
 * `abortSignal` reads `signals.signal` when the model reads it (`core/signal-source.ts`).
 */
export function toCallOptions(
  request: LlmRequest,
  signals?: SignalSource<AbortSignal>,
): LanguageModelV3CallOptions {
  const tools = [...toTools(request.tools), ...toProviderTools(request.builtInTools)];
  const options: LanguageModelV3CallOptions = {
    ...toCallSettings(request.config ?? {}),
    prompt: toPrompt(request.systemInstruction, request.contents),
    ...(tools.length > 0 ? { tools, toolChoice: { type: "auto" } } : {}),
  };
  return signals ? withLazySignal(options, "abortSignal", signals) : options;
}
