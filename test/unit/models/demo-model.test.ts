import type { LanguageModelV3CallOptions } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import type { Content } from "../../../src/core/content.js";
import type { LlmRequest, ToolDeclaration } from "../../../src/core/llm.js";
import { callModel } from "../../../src/models/call-model.js";
import { toCallOptions } from "../../../src/models/convert.js";
import { createDemoModel } from "../../../src/models/demo-model.js";
import { demoReply, identityOf, lastUserText } from "../../../src/models/demo-script.js";
import { collect } from "./fakes.js";

const identity = (name: string, description: string) =>
  `You are an agent. Your internal name is "${name}". The description about you is "${description}".`;

const transferBlock = (targets: Array<[string, string]>) =>
  [
    "You can hand the conversation over to one of these other agents:",
    "",
    ...targets.flatMap(([name, description]) => [
      `Agent name: ${name}`,
      `Agent description: ${description}`,
      "",
    ]),
    "If another agent's description fits the question better, call `transfer_to_agent`.",
    `NOTE: the only valid agent names are ${targets.map(([n]) => `\`${n}\``).join(", ")}.`,
  ].join("\n");

const transferTool = (names: string[]): ToolDeclaration => ({
  name: "transfer_to_agent",
  description: "Hands the user's question over to another agent that is better suited to answer it.",
  parameters: {
    type: "object",
    properties: { agent_name: { type: "string", enum: names } },
    required: ["agent_name"],
  },
});

const forecastTool: ToolDeclaration = {
  name: "get_forecast",
  description: "Gets the weather forecast for a city",
  parameters: {
    type: "object",
    properties: { city: { type: "string", description: "The city to forecast" }, days: { type: "integer" } },
    required: ["city"],
  },
};

const concierge = (text: string, history: Content[] = []): LlmRequest => ({
  systemInstruction: [
    "You are the concierge. Route weather and billing questions to the specialists.",
    identity("concierge", "Greets the user and routes each question to the right specialist."),
    transferBlock([
      ["weather", "Answers questions about the weather, forecasts, temperature and rain in a city."],
      ["billing", "Handles billing: invoices, payments, refunds and charges."],
    ]),
  ].join("\n\n"),
  contents: [...history, { role: "user", parts: [{ text }] }],
  tools: [transferTool(["weather", "billing"])],
});

const options = (request: LlmRequest): LanguageModelV3CallOptions => toCallOptions(request);

describe("the demo model's script", () => {
  it("transfers to the target whose description shares the user's words", () => {
    expect(demoReply(options(concierge("Can I get a refund for my last invoice?")))).toEqual({
      kind: "tool-call",
      toolName: "transfer_to_agent",
      input: { agent_name: "billing" },
    });
    expect(demoReply(options(concierge("Will it rain in Oslo?")))).toMatchObject({
      input: { agent_name: "weather" },
    });
  });

  it("answers itself when no target matches better than its own description", () => {
    const reply = demoReply(options(concierge("Which specialist is right for me?")));
    expect(reply.kind).toBe("text");
  });

  it("calls a tool named by the user's words, with arguments from its schema", () => {
    const request: LlmRequest = {
      systemInstruction: identity("weather", "Answers questions about the weather."),
      contents: [{ role: "user", parts: [{ text: "What is the forecast for New York in 3 days?" }] }],
      tools: [forecastTool, transferTool(["concierge"])],
    };
    expect(demoReply(options(request))).toEqual({
      kind: "tool-call",
      toolName: "get_forecast",
      input: { city: "New York", days: 3 },
    });
  });

  it("summarises the tool result after a tool call", () => {
    const request: LlmRequest = {
      systemInstruction: identity("weather", "Weather."),
      contents: [
        { role: "user", parts: [{ text: "forecast for Paris" }] },
        {
          role: "model",
          parts: [{ functionCall: { id: "adk-1", name: "get_forecast", args: { city: "Paris" } } }],
        },
        {
          role: "user",
          parts: [
            {
              functionResponse: {
                id: "adk-1",
                name: "get_forecast",
                response: { forecast: "sunny", high: 21 },
              },
            },
          ],
        },
      ],
      tools: [forecastTool],
    };
    expect(demoReply(options(request))).toEqual({
      kind: "text",
      text: "Here is what I found: get_forecast returned forecast: sunny, high: 21.",
    });
  });

  it("answers in role, with its identity and the user's question", () => {
    const request: LlmRequest = {
      systemInstruction: identity("billing", "Handles invoices"),
      contents: [{ role: "user", parts: [{ text: "Hello there" }] }],
      tools: [],
    };
    const reply = demoReply(options(request));
    expect(reply).toMatchObject({ kind: "text" });
    expect(reply.kind === "text" && reply.text).toMatch(
      /^I am billing \(Handles invoices\)\. You asked: "Hello there"\./,
    );
  });

  it("takes the identity from a 'You are' sentence when there is no identity line", () => {
    expect(identityOf("Be nice.\nYou are a cheerful pirate. Speak like one.").sentence).toBe(
      "I am a cheerful pirate",
    );
  });

  it("reads the newest user text, skipping 'For context:' messages from other agents", () => {
    const prompt = toCallOptions({
      systemInstruction: "",
      contents: [
        { role: "user", parts: [{ text: "Refund please" }] },
        {
          role: "user",
          parts: [{ text: "For context:" }, { text: "[concierge] called tool `transfer_to_agent`" }],
        },
      ],
      tools: [],
    }).prompt;
    expect(lastUserText(prompt)).toBe("Refund please");
  });

  it("gives the same reply to the same request", () => {
    const request = options(concierge("Is it going to rain tomorrow?"));
    expect(demoReply(request)).toEqual(demoReply(structuredClone(request)));
  });
});

describe("createDemoModel", () => {
  const run = { retry: { attempts: 1, initialDelayMs: 1, maxDelayMs: 1 }, sleep: async () => undefined };

  it("returns a transfer call with no id, so the agent mints an adk- id", async () => {
    const model = createDemoModel("concierge");
    const [response] = await collect(
      callModel(model, concierge("refund my invoice"), { ...run, streaming: false }),
    );
    expect(response?.content?.parts).toEqual([
      { functionCall: { name: "transfer_to_agent", args: { agent_name: "billing" } } },
    ]);
    expect(response?.modelVersion).toBe("concierge");
  });

  it("streams its answer in a few chunks, then the whole text", async () => {
    const model = createDemoModel("x");
    const request: LlmRequest = {
      systemInstruction: identity("helper", "Helps"),
      contents: [{ role: "user", parts: [{ text: "Tell me a story about dragons" }] }],
      tools: [],
    };
    const responses = await collect(callModel(model, request, { ...run, streaming: true }));
    const partials = responses.filter((r) => r.partial);
    const final = responses.at(-1);
    expect(partials.length).toBeGreaterThanOrEqual(2);
    expect(final?.partial).toBeUndefined();
    expect(partials.map((r) => r.content?.parts?.[0]?.text).join("")).toBe(final?.content?.parts?.[0]?.text);
    expect(final?.content?.parts?.[0]?.text).toContain('You asked: "Tell me a story about dragons"');
  });

  it("streams a tool call as one aggregated response", async () => {
    const model = createDemoModel("x");
    const responses = await collect(
      callModel(model, concierge("rain in Rome?"), { ...run, streaming: true }),
    );
    expect(responses).toHaveLength(1);
    expect(responses[0]?.content?.parts?.[0]?.functionCall).toEqual({
      name: "transfer_to_agent",
      args: { agent_name: "weather" },
    });
  });
});
