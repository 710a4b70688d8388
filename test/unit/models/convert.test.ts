import { describe, expect, it } from "vitest";
import type { Content } from "../../../src/core/content.js";
import { toCallOptions, toPrompt, toTools } from "../../../src/models/convert.js";

describe("toPrompt", () => {
  it("puts the system instruction first and user text in a user message", () => {
    const prompt = toPrompt("Be brief.", [{ role: "user", parts: [{ text: "hello" }] }]);
    expect(prompt).toEqual([
      { role: "system", content: "Be brief." },
      { role: "user", content: [{ type: "text", text: "hello" }] },
    ]);
  });

  it("leaves out the system message when the instruction is empty", () => {
    expect(toPrompt("", [{ role: "user", parts: [{ text: "x" }] }])[0]?.role).toBe("user");
  });

  it("turns model function calls into tool calls and responses into tool results with the same id and name", () => {
    const contents: Content[] = [
      { role: "user", parts: [{ text: "weather?" }] },
      {
        role: "model",
        parts: [
          { text: "Checking." },
          { functionCall: { id: "adk-1", name: "get_forecast", args: { city: "Oslo" } } },
        ],
      },
      {
        role: "user",
        parts: [{ functionResponse: { id: "adk-1", name: "get_forecast", response: { temp: 3 } } }],
      },
    ];
    const prompt = toPrompt("", contents);
    expect(prompt[1]).toEqual({
      role: "assistant",
      content: [
        { type: "text", text: "Checking." },
        { type: "tool-call", toolCallId: "adk-1", toolName: "get_forecast", input: { city: "Oslo" } },
      ],
    });
    expect(prompt[2]).toEqual({
      role: "tool",
      content: [
        {
          type: "tool-result",
          toolCallId: "adk-1",
          toolName: "get_forecast",
          output: { type: "json", value: { temp: 3 } },
        },
      ],
    });
  });

  it("pairs id-less calls and responses by name, in order", () => {
    const prompt = toPrompt("", [
      { role: "model", parts: [{ functionCall: { name: "a" } }, { functionCall: { name: "b" } }] },
      {
        role: "user",
        parts: [
          { functionResponse: { name: "b", response: {} } },
          { functionResponse: { name: "a", response: {} } },
        ],
      },
    ]);
    const calls = prompt[0]?.role === "assistant" ? prompt[0].content : [];
    const results = prompt[1]?.role === "tool" ? prompt[1].content : [];
    const idOf = (name: string, parts: typeof calls | typeof results) =>
      parts.find((p) => "toolName" in p && p.toolName === name && "toolCallId" in p);
    expect(idOf("a", calls)).toMatchObject({ toolCallId: "call_1" });
    expect(idOf("b", calls)).toMatchObject({ toolCallId: "call_2" });
    expect(idOf("a", results)).toMatchObject({ toolCallId: "call_1" });
    expect(idOf("b", results)).toMatchObject({ toolCallId: "call_2" });
  });

  it("sends thoughts as reasoning and keeps a Gemini thought signature as provider options", () => {
    const prompt = toPrompt("", [
      {
        role: "model",
        parts: [
          { text: "let me think", thought: true },
          { functionCall: { id: "c1", name: "f", args: {} }, thoughtSignature: "sig" },
        ],
      },
    ]);
    expect(prompt[0]).toEqual({
      role: "assistant",
      content: [
        { type: "reasoning", text: "let me think" },
        {
          type: "tool-call",
          toolCallId: "c1",
          toolName: "f",
          input: {},
          providerOptions: { google: { thoughtSignature: "sig" }, vertex: { thoughtSignature: "sig" } },
        },
      ],
    });
  });

  it("turns inline data and file data into file parts", () => {
    const prompt = toPrompt("", [
      {
        role: "user",
        parts: [
          { text: "see" },
          { inlineData: { mimeType: "image/png", data: "aGk=" } },
          { fileData: { fileUri: "https://files.example/a.pdf", mimeType: "application/pdf" } },
        ],
      },
    ]);
    expect(prompt[0]).toEqual({
      role: "user",
      content: [
        { type: "text", text: "see" },
        { type: "file", data: "aGk=", mediaType: "image/png" },
        { type: "file", data: new URL("https://files.example/a.pdf"), mediaType: "application/pdf" },
      ],
    });
  });

  it("drops a file part whose URI is not a URL", () => {
    const prompt = toPrompt("", [
      { role: "user", parts: [{ text: "a" }, { fileData: { fileUri: "not a url" } }] },
    ]);
    expect(prompt[0]).toEqual({ role: "user", content: [{ type: "text", text: "a" }] });
  });

  it("splits a user content that mixes function responses and text into a tool message, then a user message", () => {
    const prompt = toPrompt("", [
      {
        role: "user",
        parts: [{ functionResponse: { id: "x", name: "f", response: { ok: true } } }, { text: "and?" }],
      },
    ]);
    expect(prompt.map((m) => m.role)).toEqual(["tool", "user"]);
  });

  it("drops contents that end up empty", () => {
    expect(
      toPrompt("", [
        { role: "model", parts: [] },
        { role: "user", parts: [{ text: "" }] },
        { role: "model" },
      ]),
    ).toEqual([]);
  });

  it("makes a tool response that is not JSON into JSON by a round trip", () => {
    const response = { ok: 1, callback: () => 1 };
    const prompt = toPrompt("", [
      { role: "user", parts: [{ functionResponse: { id: "x", name: "f", response } }] },
    ]);
    const output = prompt[0]?.role === "tool" ? prompt[0].content[0] : undefined;
    expect(output).toMatchObject({ output: { type: "json", value: { ok: 1 } } });
    expect(output).not.toHaveProperty("output.value.callback");
  });
});

describe("toTools and toCallOptions", () => {
  const tool = {
    name: "get_forecast",
    description: "Forecast",
    parameters: { type: "object", properties: {} },
  };

  it("declares each tool as a function tool with its JSON Schema", () => {
    expect(toTools([tool])).toEqual([
      { type: "function", name: "get_forecast", description: "Forecast", inputSchema: tool.parameters },
    ]);
  });

  it("offers tools with automatic tool choice and passes the abort signal", () => {
    const signal = new AbortController().signal;
    let reads = 0;
    const source = {
      get signal() {
        reads++;
        return signal;
      },
    };
    const options = toCallOptions({ config: {}, systemInstruction: "", contents: [], tools: [tool] }, source);
    expect(options.toolChoice).toEqual({ type: "auto" });
    expect(options.tools).toHaveLength(1);
    expect(reads).toBe(0);
    expect(options.abortSignal).toBe(signal);
    expect(reads).toBe(1);
  });

  it("sends no tool fields when there are no tools", () => {
    const options = toCallOptions({ config: {}, systemInstruction: "", contents: [], tools: [] });
    expect(options).not.toHaveProperty("tools");
    expect(options).not.toHaveProperty("toolChoice");
  });
});
