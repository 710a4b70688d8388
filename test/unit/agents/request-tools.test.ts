import { describe, expect, it } from "vitest";
import { ExampleTool } from "../../../src/agents/example-tool.js";
import { type Example, examplesText } from "../../../src/agents/examples-text.js";
import { googleSearch, urlContext } from "../../../src/agents/gemini-tools.js";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import { loadAgentConfig } from "../../../src/config/load-agent-config.js";
import { userText } from "../../../src/core/content.js";
import type { LlmRequest } from "../../../src/core/llm.js";
import { defineApp } from "../../../src/runner/app.js";
import { harness } from "../support/harness.js";
import { scriptedModel } from "../support/scripted-model.js";

const reviews: Example[] = [
  {
    input: userText("The battery is great."),
    output: [{ role: "model", parts: [{ text: "Sentiment: Positive." }] }],
  },
  {
    input: userText("Where is my order?"),
    output: [
      { role: "model", parts: [{ functionCall: { name: "track", args: { order: "A-1", express: true } } }] },
      { role: "user", parts: [{ functionResponse: { name: "track", response: { status: "shipped" } } }] },
      { role: "model", parts: [{ text: "It has shipped." }] },
    ],
  },
];

/** ADK's `example_util` text for `reviews`, written out by hand from ADK's constants. */
const ADK_TEXT =
  "<EXAMPLES>\nBegin few-shot\nThe following are examples of user queries and model responses using the available tools.\n\n" +
  "EXAMPLE 1:\nBegin example\n[user]\nThe battery is great.\n[model]\nSentiment: Positive.\nEnd example\n\n" +
  "EXAMPLE 2:\nBegin example\n[user]\nWhere is my order?\n[model]\n```\ntrack(order='A-1', express=True)\n```\n" +
  "[user]\n```\n{'will_continue': None, 'scheduling': None, 'parts': None, 'id': None, 'name': 'track', 'response': {'status': 'shipped'}}\n```\n" +
  "[model]\nIt has shipped.\nEnd example\n\n" +
  "End few-shot\n<EXAMPLES>";

describe("ExampleTool adds ADK's few-shot block to the system instruction", () => {
  it("writes the examples byte for byte as ADK's example_util does", () => {
    expect(examplesText(reviews, "gemini-2.5-flash")).toBe(ADK_TEXT);
  });

  it("fences calls as tool_code / tool_outputs for a model that is not Gemini 2", () => {
    const text = examplesText(reviews, "gemini-1.5-pro");
    expect(text).toContain("```tool_code\ntrack(order='A-1', express=True)\n```\n");
    expect(text).toContain("```tool_outputs\n{'will_continue': None");
  });

  it("appends the block after the instruction and identity, separated by a blank line", async () => {
    let seen: LlmRequest | undefined;
    const agent = new LlmAgent({
      name: "classifier",
      description: "Classifies reviews.",
      model: scriptedModel([{ text: "Sentiment: Neutral." }]),
      instruction: "Classify the review.",
      tools: [new ExampleTool(reviews)],
      beforeModel: (_ctx, request) => {
        seen = structuredClone(request);
        return undefined;
      },
    });
    const h = await harness(agent);
    await h.turn("The screen is fine.");
    expect(seen?.systemInstruction.endsWith(`.\n\n${examplesText(reviews, "scripted")}`)).toBe(true);
    expect(seen?.tools).toEqual([]);
  });

  it("asks a provider for the examples of the user's message", async () => {
    const queries: string[] = [];
    const tool = new ExampleTool({
      getExamples: (query) => {
        queries.push(query);
        return reviews.slice(0, 1);
      },
    });
    const request: LlmRequest = { systemInstruction: "Be brief.", contents: [], tools: [], config: {} };
    await tool.processRequest(request, {
      modelName: "gemini-2.5-flash",
      userContent: userText("Nice kettle"),
    });
    expect(queries).toEqual(["Nice kettle"]);
    expect(request.systemInstruction).toBe(
      `Be brief.\n\n${examplesText(reviews.slice(0, 1), "gemini-2.5-flash")}`,
    );
  });

  it("loads ExampleTool from YAML in ADK's example format", () => {
    const root = loadAgentConfig({
      files: {
        "root_agent.yaml": [
          "name: classifier",
          "model: gemini-2.5-flash",
          "tools:",
          "  - name: ExampleTool",
          "    args:",
          "      examples:",
          "        - input: {role: user, parts: [{text: The battery is great.}]}",
          "          output:",
          "            - {role: model, parts: [{text: 'Sentiment: Positive.'}]}",
        ].join("\n"),
      },
    });
    const tool = root instanceof LlmAgent ? root.config.tools?.[0] : undefined;
    expect(tool).toBeInstanceOf(ExampleTool);
    expect(tool instanceof ExampleTool && tool.examples).toEqual(reviews.slice(0, 1));
  });

  it("refuses YAML examples that are not ADK's format, naming the field", () => {
    const load = () =>
      loadAgentConfig({
        files: {
          "root_agent.yaml":
            "name: a\nmodel: gemini-2.5-flash\ntools:\n  - name: ExampleTool\n    args: {examples: [{input: hi}]}\n",
        },
      });
    expect(load).toThrow(/root_agent\.yaml: tools\[0\]\.args\.examples/);
  });
});

describe("Gemini's built-in tools need a Gemini model, checked at load", () => {
  it("refuses googleSearch on a non-Gemini model when the app is defined, as ADK's configuration error", () => {
    const agent = new LlmAgent({ name: "searcher", model: "openai:gpt-4.1-mini", tools: [googleSearch] });
    expect(() => defineApp({ name: "search", rootAgent: agent })).toThrow(
      'LlmAgent "searcher": Google search tool is not supported for model openai:gpt-4.1-mini',
    );
  });

  it("checks the model a sub-agent inherits", () => {
    const child = new LlmAgent({ name: "reader", tools: [urlContext] });
    const root = new LlmAgent({ name: "root", model: "anthropic:claude-sonnet-4-5", subAgents: [child] });
    expect(() => defineApp({ name: "read", rootAgent: root })).toThrow(/Url context tool is not supported/);
    const gemini = new LlmAgent({
      name: "root",
      model: "google:gemini-2.5-flash",
      subAgents: [new LlmAgent({ name: "reader", tools: [urlContext] })],
    });
    expect(() => defineApp({ name: "read", rootAgent: gemini })).not.toThrow();
  });

  it("refuses Gemini 1.x models, which the AI SDK's Google provider cannot give these tools", () => {
    const agent = new LlmAgent({ name: "old", model: "google:gemini-1.5-pro", tools: [googleSearch] });
    expect(() => defineApp({ name: "old", rootAgent: agent })).toThrow(/Gemini 1\.x/);
  });

  it("names the YAML file when a tree's built-in tool has no Gemini model", () => {
    const load = () =>
      loadAgentConfig({
        files: {
          "root_agent.yaml": "name: a\nmodel: openai:gpt-4.1-mini\ntools:\n  - name: google_search\n",
        },
      });
    expect(load).toThrow(/^root_agent\.yaml: tools: LlmAgent "a": Google search tool is not supported/);
  });

  it("refuses a code executor other than Gemini's built-in one, saying why", () => {
    const load = () =>
      loadAgentConfig({
        files: {
          "root_agent.yaml":
            "name: a\nmodel: gemini-2.5-flash\ncode_executor:\n  name: google.adk.code_executors.UnsafeLocalCodeExecutor\n",
        },
      });
    expect(load).toThrow(/Python code executors cannot run on Workers/);
  });
});
