import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import { createEvent, type Event } from "../../../src/core/event.js";
import { emptyState } from "../../../src/evals/empty-state.js";
import { evalSetFileText, parseEvalSetFile } from "../../../src/evals/eval-file.js";
import { EvalCaseSchema, EvalSetSchema } from "../../../src/evals/eval-set.js";
import { invocationsOf } from "../../../src/evals/invocations.js";

const ROOT = join(import.meta.dirname, "../../..");

let n = 0;
const env = { ids: { uuid: () => `id-${++n}` }, clock: { now: () => 1_000_000 + n } };
const ev = (fields: Parameters<typeof createEvent>[0]): Event => createEvent(fields, env);

describe("ADK's eval set format", () => {
  it("reads ADK's snake_case file form and its camelCase API form alike", () => {
    const snake = {
      eval_set_id: "s1",
      eval_cases: [
        {
          eval_id: "c1",
          conversation: [
            {
              invocation_id: "e-1",
              user_content: { role: "user", parts: [{ text: "hi" }] },
              final_response: { parts: [{ text: "hello" }] },
              intermediate_data: {
                tool_uses: [{ name: "get_forecast", args: { city_name: "Lisbon" } }],
                intermediate_responses: [["weather", [{ text: "looking" }]]],
              },
            },
          ],
          session_input: { app_name: "demo", user_id: "u", state: { user_tier: "gold" } },
        },
      ],
    };
    const camel = {
      evalSetId: "s1",
      evalCases: [
        {
          evalId: "c1",
          conversation: [
            {
              invocationId: "e-1",
              userContent: { role: "user", parts: [{ text: "hi" }] },
              finalResponse: { parts: [{ text: "hello" }] },
              intermediateData: {
                toolUses: [{ name: "get_forecast", args: { city_name: "Lisbon" } }],
                intermediateResponses: [["weather", [{ text: "looking" }]]],
              },
            },
          ],
          sessionInput: { appName: "demo", userId: "u", state: { user_tier: "gold" } },
        },
      ],
    };
    const fromSnake = EvalSetSchema.parse(snake);
    expect(fromSnake).toEqual(EvalSetSchema.parse(camel));
    // Tool arguments and state are the user's maps: their keys are never renamed.
    expect(fromSnake.evalCases[0]?.conversation[0]?.intermediateData?.toolUses[0]?.args).toEqual({
      city_name: "Lisbon",
    });
    expect(fromSnake.evalCases[0]?.sessionInput?.state).toEqual({ user_tier: "gold" });
    expect(fromSnake.evalCases[0]?.creationTimestamp).toBe(0);
  });

  it("writes the file form in snake_case and reads it back unchanged", () => {
    const evalSet = parseEvalSetFile(readFileSync(join(ROOT, "evals/demo.evalset.json"), "utf8"), "demo");
    const text = evalSetFileText(evalSet);
    expect(text).toContain('"eval_set_id": "demo"');
    expect(text).toContain('"tool_uses": [');
    expect(text).toContain('"agent_name": "weather"');
    expect(text).not.toMatch(/"(evalSetId|evalCases|userContent|finalResponse|toolUses|functionCall)"/);
    expect(parseEvalSetFile(text, "again")).toEqual(evalSet);
  });

  it("refuses a case without an id or a conversation, naming the field", () => {
    expect(EvalCaseSchema.safeParse({ conversation: [] }).success).toBe(false);
    expect(() =>
      parseEvalSetFile('{"eval_set_id": "x", "eval_cases": [{"eval_id": "a"}]}', "f.json"),
    ).toThrow(/f\.json is not an ADK eval set: evalCases\.0\.conversation/);
    expect(() => parseEvalSetFile("{", "f.json")).toThrow(/f\.json is not JSON/);
  });
});

describe("invocationsOf (ADK convert_session_to_eval_invocations)", () => {
  it("cuts a session at each user message: tool calls in order, the last text the final response", () => {
    const events = [
      ev({ invocationId: "e-1", author: "user", content: { role: "user", parts: [{ text: "weather?" }] } }),
      ev({
        invocationId: "e-1",
        author: "concierge",
        content: {
          role: "model",
          parts: [{ functionCall: { name: "transfer_to_agent", args: { agent_name: "weather" } } }],
        },
      }),
      ev({
        invocationId: "e-1",
        author: "weather",
        content: { role: "model", parts: [{ text: "Checking." }] },
      }),
      ev({
        invocationId: "e-1",
        author: "weather",
        content: { role: "model", parts: [{ text: "…", thought: true }] },
        partial: true,
      }),
      ev({
        invocationId: "e-1",
        author: "weather",
        content: {
          role: "model",
          parts: [{ functionCall: { name: "get_forecast", args: { city: "Lisbon" } } }],
        },
      }),
      ev({ invocationId: "e-1", author: "weather", content: { role: "model", parts: [{ text: "Sunny." }] } }),
      ev({ invocationId: "e-2", author: "user", content: { role: "user", parts: [{ text: "thanks" }] } }),
      ev({
        invocationId: "e-2",
        author: "weather",
        content: { role: "model", parts: [{ text: "You're welcome." }] },
      }),
    ];
    const [first, second, ...rest] = invocationsOf(events);
    expect(rest).toEqual([]);
    expect(first).toMatchObject({
      invocationId: "e-1",
      userContent: { parts: [{ text: "weather?" }] },
      finalResponse: { parts: [{ text: "Sunny." }] },
      intermediateData: {
        toolUses: [
          { name: "transfer_to_agent", args: { agent_name: "weather" } },
          { name: "get_forecast", args: { city: "Lisbon" } },
        ],
        intermediateResponses: [["weather", [{ text: "Checking." }]]],
      },
    });
    expect(second).toMatchObject({
      invocationId: "e-2",
      finalResponse: { parts: [{ text: "You're welcome." }] },
      intermediateData: { toolUses: [], intermediateResponses: [] },
    });
  });

  it("leaves the final response out of an invocation that answered no text", () => {
    const [only] = invocationsOf([
      ev({ invocationId: "e-1", author: "user", content: { role: "user", parts: [{ text: "hi" }] } }),
      ev({ invocationId: "e-1", author: "a", errorCode: "MODEL_ERROR", errorMessage: "down" }),
    ]);
    expect(only?.finalResponse).toBeUndefined();
  });
});

describe("emptyState (ADK create_empty_state)", () => {
  it("sets every {name} a text instruction of the tree reads to an empty string", () => {
    const leaf = new LlmAgent({
      name: "leaf",
      model: "demo:l",
      instruction: "Speak {language} about {topic}.",
    });
    const fn = new LlmAgent({ name: "fn", model: "demo:f", instruction: () => "Ignored {hidden}." });
    const root = new LlmAgent({
      name: "root",
      model: "demo:r",
      instruction: "Greet {user_name}; skip {user:tier}, {maybe?} and {{literal}}.",
      subAgents: [leaf, fn],
    });
    expect(emptyState(root)).toEqual({ language: "", topic: "", user_name: "", literal: "" });
  });
});
