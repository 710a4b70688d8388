// The MCP client the official conformance suite starts for its client scenarios (`conformance client
// --command "node --import tsx scripts/conformance/mcp-client.ts" --scenario <name>`): the suite appends the
// server's URL and names the scenario in MCP_CONFORMANCE_SCENARIO (and its data in MCP_CONFORMANCE_CONTEXT).
// It runs a Baton agent in Node whose one toolset is `McpToolset` on that URL, as an app would: each turn
// lists the server's tools, and a stand-in model calls them (every listed tool once, with the arguments
// the scenario gives or ones made from the tool's input schema). A call that pauses on `input_required`
// is answered the way a user would answer the `adk_request_confirmation` (confirmed, each form field at
// its default or a sample value), and the turn resumes. Exit 0 when the turns end, 1 on a failure.
import type { LanguageModelV3, LanguageModelV3CallOptions, LanguageModelV3Content } from "@ai-sdk/provider";
import {
  type Content,
  type FunctionCall,
  functionCallsOf,
  functionResponsesOf,
} from "../../src/core/content.js";
import type { Event } from "../../src/core/event.js";
import { defineApp, InMemorySessionStore, LlmAgent, Runner } from "../../src/index.js";
import { McpToolset } from "../../src/mcp.js";

interface PlannedCall {
  name: string;
  arguments: Record<string, unknown>;
}
interface Offered {
  name: string;
  inputSchema: Record<string, unknown>;
}

type Schema = { type?: unknown; properties?: Record<string, Schema>; required?: unknown; default?: unknown };

/** A sample value of a JSON Schema: its default, else one of its type. */
function sample(schema: Schema | undefined): unknown {
  if (schema?.default !== undefined) return schema.default;
  const type = Array.isArray(schema?.type) ? schema?.type[0] : schema?.type;
  if (type === "number" || type === "integer") return 1;
  if (type === "boolean") return true;
  if (type === "array") return [];
  if (type === "object") return objectFor(schema);
  return "test";
}

/** An object with every property of `schema` at a sample value. */
function objectFor(schema: Schema | undefined): Record<string, unknown> {
  const properties = schema?.properties ?? {};
  return Object.fromEntries(Object.entries(properties).map(([key, value]) => [key, sample(value)]));
}

/**
 * What the stand-in model calls, given the tools Baton offered: the scenario's own calls when it names
 * them; else every tool once, a `schema` argument given another tool's input schema as it was offered
 * (the suite checks that a client passes a tool's schema on unchanged).
 */
function plan(
  offered: readonly Offered[],
  context: { toolCalls?: PlannedCall[] } | undefined,
): PlannedCall[] {
  if (context?.toolCalls !== undefined) return context.toolCalls;
  return offered.map((tool) => {
    const properties = (tool.inputSchema as Schema).properties ?? {};
    const other = offered.find((t) => t.name !== tool.name);
    if ("schema" in properties && other !== undefined)
      return { name: tool.name, arguments: { schema: other.inputSchema } };
    if (tool.name === "add_numbers") return { name: tool.name, arguments: { a: 2, b: 3 } };
    return { name: tool.name, arguments: objectFor(tool.inputSchema as Schema) };
  });
}

const usage = {
  inputTokens: { total: 1, noCache: 1, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: 1, text: 1, reasoning: undefined },
};

/** The stand-in model: the planned calls at the first step of the first turn, then a closing text. */
function standInModel(context: { toolCalls?: PlannedCall[] } | undefined): LanguageModelV3 {
  let planned = false;
  const reply = (options: LanguageModelV3CallOptions): LanguageModelV3Content[] => {
    if (planned) return [{ type: "text", text: "Done." }];
    planned = true;
    const offered = (options.tools ?? []).flatMap((tool) =>
      tool.type === "function"
        ? [{ name: tool.name, inputSchema: tool.inputSchema as Record<string, unknown> }]
        : [],
    );
    return plan(offered, context).map((call, i) => ({
      type: "tool-call",
      toolCallId: `call_${i}`,
      toolName: call.name,
      input: JSON.stringify(call.arguments),
    }));
  };
  const finish = (content: LanguageModelV3Content[]) =>
    content.some((c) => c.type === "tool-call")
      ? { unified: "tool-calls" as const, raw: "tool_calls" }
      : { unified: "stop" as const, raw: "stop" };
  return {
    specificationVersion: "v3",
    provider: "conformance",
    modelId: "stand-in",
    supportedUrls: {},
    async doGenerate(options) {
      const content = reply(options);
      return { content, finishReason: finish(content), usage, warnings: [] };
    },
    async doStream(options) {
      const content = reply(options);
      return {
        stream: new ReadableStream({
          start(controller) {
            controller.enqueue({ type: "stream-start", warnings: [] });
            for (const [i, c] of content.entries()) {
              if (c.type === "tool-call") controller.enqueue(c);
              else if (c.type === "text") {
                controller.enqueue({ type: "text-start", id: `t${i}` });
                controller.enqueue({ type: "text-delta", id: `t${i}`, delta: c.text });
                controller.enqueue({ type: "text-end", id: `t${i}` });
              }
            }
            controller.enqueue({ type: "finish", finishReason: finish(content), usage });
            controller.close();
          },
        }),
      };
    },
  };
}

/** A user's answer to a pause on input: confirmed, with each asked form field at its default or a sample. */
function answerOf(request: FunctionCall): Record<string, unknown> {
  const payload = (request.args?.toolConfirmation as { payload?: Record<string, unknown> } | undefined)
    ?.payload;
  const asked = (payload?.mcpInputRequired ?? {}) as {
    inputRequests?: Record<string, { method: string; params?: { requestedSchema?: Schema } }>;
  };
  const requests = Object.entries(asked.inputRequests ?? {}).filter(
    ([, r]) => r.method === "elicitation/create" || r.method === "sampling/createMessage",
  );
  const answerTo = (r: { method: string; params?: { requestedSchema?: Schema } }) =>
    r.method === "elicitation/create" ? objectFor(r.params?.requestedSchema) : "A reply from the user.";
  const first = requests[0];
  const answer =
    requests.length === 1 && first !== undefined
      ? answerTo(first[1])
      : Object.fromEntries(requests.map(([key, r]) => [key, answerTo(r)]));
  return { confirmed: true, payload: answer };
}

async function main(): Promise<number> {
  const url = process.argv.at(-1);
  if (url === undefined || !/^https?:\/\//.test(url)) throw new Error("usage: mcp-client.ts <server url>");
  const scenario = process.env.MCP_CONFORMANCE_SCENARIO ?? "";
  const context = process.env.MCP_CONFORMANCE_CONTEXT
    ? (JSON.parse(process.env.MCP_CONFORMANCE_CONTEXT) as { toolCalls?: PlannedCall[] })
    : undefined;
  const toolset = new McpToolset({ connectionParams: { url, timeout: 10, sseReadTimeout: 20 } });
  const rootAgent = new LlmAgent({ name: "conformance", model: standInModel(context), tools: [toolset] });
  const sessionStore = new InMemorySessionStore();
  const runner = new Runner({ app: defineApp({ name: "conformance", rootAgent }), sessionStore });
  await sessionStore.createSession({ appName: "conformance", userId: "u", sessionId: "s" });
  const run = async (newMessage: Content) => {
    const events: Event[] = [];
    for await (const event of runner.run({ userId: "u", sessionId: "s", newMessage })) events.push(event);
    return events;
  };
  let events = await run({ role: "user", parts: [{ text: `Run the ${scenario} scenario's tools.` }] });
  for (let round = 0; round < 5; round += 1) {
    const requests = events
      .flatMap((e) => functionCallsOf(e.content))
      .filter((c) => c.name === "adk_request_confirmation");
    if (requests.length === 0) break;
    const parts = requests.map((r) => ({
      functionResponse: { id: r.id ?? "", name: "adk_request_confirmation", response: answerOf(r) },
    }));
    events = await run({ role: "user", parts });
  }
  const failed = events.find((e) => e.errorCode !== undefined);
  const answers = events.flatMap((e) => functionResponsesOf(e.content));
  for (const answer of answers)
    console.log(`${answer.name}: ${JSON.stringify(answer.response).slice(0, 300)}`);
  if (failed) console.error(`The turn failed: ${failed.errorCode} ${failed.errorMessage ?? ""}`);
  return failed ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
