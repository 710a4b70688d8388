import { describe, expect, it } from "vitest";
import { z } from "zod";
import { AgentTool } from "../../../src/agents/agent-tool.js";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import { SequentialAgent } from "../../../src/agents/sequential-agent.js";
import { isFinalResponse } from "../../../src/core/event.js";
import { harness } from "../support/harness.js";
import { texts } from "../support/run-helpers.js";
import { ScriptAgent } from "../support/script-agent.js";
import { promptText, scriptedModel } from "../support/scripted-model.js";

const callTool = (name: string, args: Record<string, unknown>) => ({ calls: [{ name, args, id: "call-1" }] });

describe("AgentTool", () => {
  it("declares the agent's name and description with one required string `request`", () => {
    const helper = new LlmAgent({ name: "summarizer", description: "Summarises text" });
    expect(new AgentTool({ agent: helper }).declaration()).toEqual({
      name: "summarizer",
      description: "Summarises text",
      parameters: { type: "object", properties: { request: { type: "string" } }, required: ["request"] },
    });
  });

  it("runs the agent on the request and returns its final text; the caller's model then answers", async () => {
    const innerModel = scriptedModel([{ text: "short version" }]);
    const helper = new LlmAgent({ name: "summarizer", model: innerModel });
    const callerModel = scriptedModel([
      callTool("summarizer", { request: "a long text" }),
      { text: "Done: short version" },
    ]);
    const h = await harness(
      new LlmAgent({ name: "root", model: callerModel, tools: [new AgentTool({ agent: helper })] }),
    );
    const events = await h.turn("summarise this");
    expect(events.map((e) => e.author)).toEqual(["root", "root", "root"]);
    expect(events[1]?.content?.parts?.[0]?.functionResponse).toEqual({
      id: "call-1",
      name: "summarizer",
      response: { result: "short version" },
    });
    expect(texts(events).at(-1)).toBe("Done: short version");
    const innerPrompt = innerModel.calls[0]?.prompt ?? [];
    expect(innerPrompt.at(-1)).toEqual({ role: "user", content: [{ type: "text", text: "a long text" }] });
    expect(promptText({ prompt: innerPrompt } as never)).not.toContain("summarise this");
    expect((await h.session()).events.map((e) => e.author)).toEqual(["user", "root", "root", "root"]);
  });

  it("starts the agent with the caller's state and forwards its state writes onto the tool's response", async () => {
    const innerModel = scriptedModel([{ text: "in French: bonjour" }]);
    const helper = new LlmAgent({
      name: "translator",
      model: innerModel,
      instruction: "Translate into {language}.",
      outputKey: "translation",
    });
    const callerModel = scriptedModel([callTool("translator", { request: "hello" }), { text: "ok" }]);
    const h = await harness(
      new LlmAgent({ name: "root", model: callerModel, tools: [new AgentTool({ agent: helper })] }),
    );
    const events = await h.turn("translate", { stateDelta: { language: "French" } });
    expect(JSON.stringify(innerModel.calls[0]?.prompt[0])).toContain("Translate into French.");
    expect(events[1]?.actions.stateDelta).toEqual({ translation: "in French: bonjour" });
    expect((await h.session()).state.translation).toBe("in French: bonjour");
  });

  it("with skipSummarization, ends the caller's turn at the tool's response without another model call", async () => {
    const helper = new LlmAgent({ name: "expert", model: scriptedModel([{ text: "the expert's answer" }]) });
    const callerModel = scriptedModel([callTool("expert", { request: "q" }), { text: "never" }]);
    const h = await harness(
      new LlmAgent({
        name: "root",
        model: callerModel,
        tools: [new AgentTool({ agent: helper, skipSummarization: true })],
      }),
    );
    const events = await h.turn("ask the expert");
    expect(callerModel.calls).toHaveLength(1);
    expect(events).toHaveLength(2);
    expect(events[1]?.actions.skipSummarization).toBe(true);
    expect(events[1] && isFinalResponse(events[1])).toBe(true);
  });

  it("takes the agent's inputSchema as its parameters and returns the parsed outputSchema object", async () => {
    const innerModel = scriptedModel([{ text: '{"celsius": 3, "sky": "grey"}' }]);
    const helper = new LlmAgent({
      name: "forecast",
      description: "Forecasts a city",
      model: innerModel,
      inputSchema: z.object({ city: z.string() }),
      outputSchema: z.object({ celsius: z.number(), sky: z.string() }),
    });
    const tool = new AgentTool({ agent: helper });
    expect(tool.declaration().parameters).toMatchObject({
      type: "object",
      properties: { city: { type: "string" } },
      required: ["city"],
    });
    const callerModel = scriptedModel([callTool("forecast", { city: "Oslo" }), { text: "3 and grey" }]);
    const h = await harness(new LlmAgent({ name: "root", model: callerModel, tools: [tool] }));
    const events = await h.turn("Oslo?");
    expect(innerModel.calls[0]?.prompt.at(-1)).toEqual({
      role: "user",
      content: [{ type: "text", text: '{"city":"Oslo"}' }],
    });
    expect(events[1]?.content?.parts?.[0]?.functionResponse?.response).toEqual({ celsius: 3, sky: "grey" });
  });

  it("answers arguments that miss `request` or fail the inputSchema with an error response", async () => {
    const helper = new LlmAgent({ name: "helper", model: scriptedModel([{ text: "unused" }]) });
    const callerModel = scriptedModel([callTool("helper", { question: "q" }), { text: "sorry" }]);
    const h = await harness(
      new LlmAgent({ name: "root", model: callerModel, tools: [new AgentTool({ agent: helper })] }),
    );
    const events = await h.turn("go");
    expect(events[1]?.content?.parts?.[0]?.functionResponse?.response.error).toContain(
      '"request" must be a string',
    );
    expect(texts(events).at(-1)).toBe("sorry");
  });

  it("fails the caller's turn with a TOOL_ERROR naming the agent's failure when the agent fails", async () => {
    const helper = new LlmAgent({
      name: "flaky",
      model: scriptedModel([{ throws: new Error("inner boom") }]),
    });
    const callerModel = scriptedModel([callTool("flaky", { request: "q" })]);
    const h = await harness(
      new LlmAgent({ name: "root", model: callerModel, tools: [new AgentTool({ agent: helper })] }),
    );
    const events = await h.turn("go");
    expect(events.at(-1)).toMatchObject({ author: "root", errorCode: "TOOL_ERROR" });
    expect(events.at(-1)?.errorMessage).toContain("inner boom");
  });

  it("wraps a workflow agent too: the result is the text of its last event with content", async () => {
    const pipeline = new SequentialAgent({
      name: "pipeline",
      description: "Two steps",
      subAgents: [new ScriptAgent({ name: "one" }, ["first"]), new ScriptAgent({ name: "two" }, ["second"])],
    });
    const callerModel = scriptedModel([callTool("pipeline", { request: "run" }), { text: "ran" }]);
    const h = await harness(
      new LlmAgent({ name: "root", model: callerModel, tools: [new AgentTool({ agent: pipeline })] }),
    );
    const events = await h.turn("go");
    expect(events[1]?.content?.parts?.[0]?.functionResponse?.response).toEqual({ result: "second" });
  });
});
