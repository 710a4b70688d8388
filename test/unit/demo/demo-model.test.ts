import type { LanguageModelV3CallOptions } from "@ai-sdk/provider";
import { describe, expect, it } from "vitest";
import type { Content } from "../../../src/core/content.js";
import type { LlmRequest, ToolDeclaration } from "../../../src/core/llm.js";
import { createDemoModel } from "../../../src/demo-model/model.js";
import { lastUserText, requestFacts } from "../../../src/demo-model/request-facts.js";
import { demoReply } from "../../../src/demo-model/script.js";
import { callModel } from "../../../src/models/call-model.js";
import { toCallOptions } from "../../../src/models/convert.js";
import type { AgentNode } from "../../../src/router/agent-node.js";
import { transferTargets } from "../../../src/router/transfer-targets.js";
import { identityInstruction } from "../../../src/transfer/agent-identity.js";
import { transferInstruction } from "../../../src/transfer/transfer-instruction.js";
import { transferToolDeclaration } from "../../../src/transfer/transfer-tool.js";
import { agentIn, llm } from "../fixtures/tree-t1.js";
import { collect } from "../models/fakes.js";

const identity = (name: string, description: string) => identityInstruction({ name, description });

const tree = llm(
  "concierge",
  { description: "Greets the user and routes each question to the right specialist." },
  [
    llm("weather", {
      description: "Answers questions about the weather, forecasts, temperature and rain in a city.",
    }),
    llm("billing", { description: "Handles billing: invoices, payments, refunds and charges." }),
  ],
);

/** The system instruction and transfer tool Baton builds for `agent`, from the real writers. */
const transferParts = (agent: AgentNode) => {
  const targets = transferTargets(agent);
  return { block: transferInstruction(agent, targets), tool: transferToolDeclaration(targets) };
};

const forecastTool: ToolDeclaration = {
  name: "get_forecast",
  description: "Gets the weather forecast for a city",
  parameters: {
    type: "object",
    properties: { city: { type: "string", description: "The city to forecast" }, days: { type: "integer" } },
    required: ["city"],
  },
};

const concierge = (text: string, history: Content[] = []): LlmRequest => {
  const { block, tool } = transferParts(tree);
  return {
    config: {},
    systemInstruction: [
      "You are the concierge. Route weather and billing questions to the specialists.",
      identity(tree.name, tree.description),
      block,
    ].join("\n\n"),
    contents: [...history, { role: "user", parts: [{ text }] }],
    tools: [tool],
  };
};

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
      config: {},
      systemInstruction: identity("weather", "Answers questions about the weather."),
      contents: [{ role: "user", parts: [{ text: "What is the forecast for New York in 3 days?" }] }],
      tools: [forecastTool, transferParts(agentIn(tree, "weather")).tool],
    };
    expect(demoReply(options(request))).toEqual({
      kind: "tool-call",
      toolName: "get_forecast",
      input: { city: "New York", days: 3 },
    });
  });

  it("fills an identifier with the number the user wrote, however short, and other strings with a word", () => {
    /** The arguments the demo model calls `tool` with for `text`, with the tool as an agent offers it. */
    const callWith = (tool: ToolDeclaration, text: string) =>
      demoReply(
        options({
          config: {},
          systemInstruction: identity("desk", "Front desk."),
          contents: [{ role: "user", parts: [{ text }] }],
          tools: [tool],
        }),
      );
    const stringTool = (name: string, property: string, description: string, propertyDescription = "") => ({
      name,
      description,
      parameters: {
        type: "object",
        properties: { [property]: { type: "string", description: propertyDescription } },
        required: [property],
      },
    });
    // The property's name ends in an identifier word (snake_case, camelCase, a bare `number`)…
    expect(
      callWith(stringTool("lookup_invoice", "number", "Finds an invoice"), "Is invoice 42 paid?"),
    ).toEqual({ kind: "tool-call", toolName: "lookup_invoice", input: { number: "42" } });
    expect(
      callWith(stringTool("track_parcel", "trackingCode", "Tracks a parcel"), "Where is parcel #7 now?"),
    ).toMatchObject({ input: { trackingCode: "7" } });
    expect(
      callWith(stringTool("cancel_order", "order_id", "Cancels an order"), "Please cancel order A-17 today"),
    ).toMatchObject({ input: { order_id: "A-17" } });
    // …or its description says it is one.
    expect(
      callWith(
        stringTool("find_ticket", "ticket", "Finds a support ticket", "The ticket's reference"),
        "Status of ticket 9 please",
      ),
    ).toMatchObject({ input: { ticket: "9" } });
    // A string that is no identifier still takes a word, never the number.
    expect(
      callWith(stringTool("set_status", "status", "Sets an invoice status"), "Mark invoice 42 as refunded"),
    ).toMatchObject({ input: { status: "refunded" } });
    // An identifier the user did not give falls back to a word rather than inventing a number.
    expect(
      callWith(stringTool("lookup_invoice", "number", "Finds an invoice"), "Is my last invoice paid?"),
    ).toMatchObject({ input: { number: "paid" } });
  });

  it("summarises the tool result after a tool call", () => {
    const request: LlmRequest = {
      config: {},
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
      config: {},
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

  it("chooses only among the transfer tool's enum, whatever the instruction's prose says", () => {
    const { block } = transferParts(tree);
    const request: LlmRequest = {
      config: {},
      systemInstruction: [
        "Send every refund, invoice and billing question to the weather agent.",
        identity(tree.name, tree.description),
        block,
      ].join("\n\n"),
      contents: [{ role: "user", parts: [{ text: "I want a refund for this invoice" }] }],
      tools: [transferToolDeclaration([agentIn(tree, "weather")])],
    };
    // billing is described in the block but not in the enum; the prose's "weather agent" sways nothing.
    expect(demoReply(options(request)).kind).toBe("text");
  });

  it("matches a target by its name when the request states no description for it", () => {
    const request: LlmRequest = {
      config: {},
      systemInstruction: identity("desk", "Front desk."),
      contents: [{ role: "user", parts: [{ text: "Talk to billing please" }] }],
      tools: [transferToolDeclaration([agentIn(tree, "weather"), agentIn(tree, "billing")])],
    };
    expect(demoReply(options(request))).toMatchObject({ input: { agent_name: "billing" } });
  });

  it("reads its identity, targets and tools from the request's structure", () => {
    const facts = requestFacts(options(concierge("hello")));
    expect(facts.me).toEqual({ name: "concierge", description: tree.description });
    expect(facts.targets).toEqual(
      tree.subAgents.map((agent) => ({ name: agent.name, description: agent.description })),
    );
    expect(facts.tools).toEqual([]);
    expect(facts.userText).toBe("hello");
  });

  it("reads the newest user text, skipping 'For context:' messages from other agents", () => {
    const prompt = toCallOptions({
      config: {},
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
      config: {},
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
