// The fake OpenAI-compatible server's script and wire formats (Chat Completions, JSON and SSE).

interface ChatMessage {
  role: string;
  content?: string | { type: string; text?: string }[] | null;
}

interface ChatTool {
  function?: { name?: string; parameters?: { properties?: Record<string, { enum?: unknown[] }> } };
}

export interface ChatRequest {
  model: string;
  stream?: boolean;
  messages: ChatMessage[];
  tools?: ChatTool[];
  [setting: string]: unknown;
}

/** Everything but the conversation and its framing: what the generation config turned into. */
export function settingsOf(request: ChatRequest): Record<string, unknown> {
  const {
    model: _m,
    stream: _s,
    stream_options: _o,
    messages: _msgs,
    tools: _t,
    tool_choice: _c,
    ...rest
  } = request;
  return rest;
}

/** What the fake says: text, or one tool call. */
type Reply = { text: string } | { toolName: string; args: Record<string, unknown> };

/** The text of a message, whether its content is a string or a list of parts. */
export const textOf = (message: ChatMessage | undefined): string => {
  const content = message?.content;
  if (typeof content === "string") return content;
  return (content ?? []).map((p) => p.text ?? "").join("");
};

/**
 * The script, from the request alone: when the newest message is the user's and says TRANSFER, call
 * `transfer_to_agent` with the first name its enum offers; otherwise answer in text.
 */
export function replyTo(request: ChatRequest): Reply {
  const last = request.messages.at(-1);
  const transfer = request.tools?.find((t) => t.function?.name === "transfer_to_agent");
  const target = transfer?.function?.parameters?.properties?.agent_name?.enum?.[0];
  if (last?.role === "user" && textOf(last).includes("TRANSFER") && typeof target === "string") {
    return { toolName: "transfer_to_agent", args: { agent_name: target } };
  }
  return { text: `${request.model} answers: ${textOf(last)}` };
}

const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };

/** A non-streamed `chat.completion` body. */
export function completion(model: string, reply: Reply) {
  const message =
    "text" in reply
      ? { role: "assistant", content: reply.text }
      : { role: "assistant", content: null, tool_calls: [toolCall(reply)] };
  const finish = "text" in reply ? "stop" : "tool_calls";
  return {
    id: "chatcmpl-fake",
    object: "chat.completion",
    created: 1_767_225_600,
    model,
    choices: [{ index: 0, message, finish_reason: finish }],
    usage,
  };
}

const toolCall = (reply: { toolName: string; args: Record<string, unknown> }) => ({
  id: "call_fake_1",
  type: "function",
  function: { name: reply.toolName, arguments: JSON.stringify(reply.args) },
});

/** The SSE chunks of a streamed reply: text in two deltas, or one tool-call delta; then usage; then DONE. */
export function chunks(model: string, reply: Reply): string[] {
  const chunk = (delta: object, finish: string | null) =>
    JSON.stringify({
      id: "chatcmpl-fake",
      object: "chat.completion.chunk",
      created: 1_767_225_600,
      model,
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
  const body =
    "text" in reply
      ? [
          chunk({ role: "assistant", content: reply.text.slice(0, 5) }, null),
          chunk({ content: reply.text.slice(5) }, null),
        ]
      : [chunk({ role: "assistant", tool_calls: [{ index: 0, ...toolCall(reply) }] }, null)];
  const finish = chunk({}, "text" in reply ? "stop" : "tool_calls");
  const tail = JSON.stringify({
    id: "chatcmpl-fake",
    object: "chat.completion.chunk",
    model,
    choices: [],
    usage,
  });
  return [...body, finish, tail, "[DONE]"];
}
