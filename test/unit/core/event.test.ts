import { describe, expect, it } from "vitest";
import type { Part } from "../../../src/core/content.js";
import {
  createEvent,
  type Event,
  type EventActions,
  EventSchema,
  isErrorWithoutContent,
  isFinalResponse,
} from "../../../src/core/event.js";

const env = {
  ids: { uuid: () => "11111111-2222-4333-8444-555555555555" },
  clock: { now: () => 1_767_225_600_123 },
};
const ev = (
  fields: Partial<Omit<Event, "actions">> & { parts?: Part[]; actions?: Partial<EventActions> },
): Event => {
  const { parts, ...rest } = fields;
  return createEvent(
    { invocationId: "e-1", author: "a", ...(parts ? { content: { role: "model", parts } } : {}), ...rest },
    env,
  );
};
const call = { functionCall: { id: "adk-1", name: "t", args: {} } };
const response = { functionResponse: { id: "adk-1", name: "t", response: { result: null } } };

describe("isFinalResponse (ADK-SEMANTICS §1.3, case E01)", () => {
  it.each<[string, Event, boolean]>([
    ["a text-only event", ev({ parts: [{ text: "hi" }] }), true],
    ["a partial chunk", ev({ parts: [{ text: "h" }], partial: true }), false],
    ["text with a function call", ev({ parts: [{ text: "x" }, call] }), false],
    ["a function response", ev({ parts: [response] }), false],
    [
      "a function response with skipSummarization",
      ev({ parts: [response], actions: { skipSummarization: true } }),
      true,
    ],
    ["a call marked long-running", ev({ parts: [call], longRunningToolIds: ["adk-1"] }), true],
    ["an error event with no content", ev({ errorCode: "X" }), true],
    ["a state-only event", ev({ actions: { stateDelta: { a: 1 } } }), true],
    [
      "an event ending in a code execution result",
      ev({ parts: [{ codeExecutionResult: { outcome: "OK" } }] }),
      false,
    ],
  ])("%s → %s", (_label, event, final) => {
    expect(isFinalResponse(event)).toBe(final);
  });
});

describe("Event wire shape", () => {
  it("stamps a UUID id and a float-second timestamp", () => {
    const e = ev({ parts: [{ text: "x" }] });
    expect(e.id).toBe("11111111-2222-4333-8444-555555555555");
    expect(e.timestamp).toBeCloseTo(1_767_225_600.123, 3);
    expect(e.actions).toEqual({
      stateDelta: {},
      artifactDelta: {},
      requestedAuthConfigs: {},
      requestedToolConfirmations: {},
    });
  });

  it("reads snake_case and camelCase alike, drops nulls, and leaves user keys alone", () => {
    const snake = EventSchema.parse({
      id: "1",
      invocation_id: "e-1",
      author: "root",
      timestamp: 1.5,
      error_code: null,
      content: { role: "model", parts: [{ function_call: { id: "c", name: "t", args: { some_arg: 1 } } }] },
      actions: { state_delta: { my_key: 1 }, transfer_to_agent: "billing", skip_summarization: null },
    });
    expect(snake.invocationId).toBe("e-1");
    expect(snake.errorCode).toBeUndefined();
    expect(snake.content?.parts?.[0]?.functionCall?.args).toEqual({ some_arg: 1 });
    expect(snake.actions.stateDelta).toEqual({ my_key: 1 });
    expect(snake.actions.transferToAgent).toBe("billing");
    expect(snake.actions.artifactDelta).toEqual({});
  });

  it("rejects an event without an author or a timestamp, naming the field", () => {
    const result = EventSchema.safeParse({ id: "1", invocationId: "e-1" });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => i.path.join("."))).toEqual(
      expect.arrayContaining(["author", "timestamp"]),
    );
  });

  it("counts only content-less events with an error code or message as errors to skip", () => {
    expect(isErrorWithoutContent(ev({ errorCode: "X" }))).toBe(true);
    expect(isErrorWithoutContent(ev({ errorMessage: "only a message" }))).toBe(true);
    expect(isErrorWithoutContent(ev({ errorCode: "X", parts: [{ text: "partial answer" }] }))).toBe(false);
    expect(isErrorWithoutContent(ev({ parts: [{ text: "fine" }] }))).toBe(false);
  });
});
