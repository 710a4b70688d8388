import { TaskState } from "@a2a-js/sdk";
import { describe, expect, it } from "vitest";
import { TaskProjection } from "../../../src/a2a/server/task-projection.js";
import { createEvent, type NewEvent } from "../../../src/core/event.js";
import { testServices } from "../support/run-helpers.js";

const services = testServices();
const event = (fields: Partial<NewEvent>) =>
  createEvent({ invocationId: "e-1", author: "helper", ...fields }, services);
const projection = () =>
  new TaskProjection(
    { id: "t-1", contextId: "c9", status: undefined, artifacts: [], history: [], metadata: undefined },
    services,
    { adk_app_name: "app" },
  );

/** Each step as `[kind, state, stored]`. */
const shape = (steps: ReturnType<TaskProjection["finish"]>) =>
  steps.map((s) => {
    const p = s.update.payload;
    const state = p?.$case === "statusUpdate" ? p.value.status?.state : undefined;
    return [p?.$case, state, s.store];
  });

describe("Baton events as A2A updates (ADK-SEMANTICS §6.3, §10.F)", () => {
  it("AS02: working, a working update with the agent's text, then the last message as an artifact and completed", () => {
    const p = projection();
    const steps = [
      p.started(),
      ...p.event(event({ content: { role: "model", parts: [{ text: "hello" }] } })),
      ...p.finish(),
    ];
    expect(shape(steps)).toEqual([
      ["statusUpdate", TaskState.TASK_STATE_WORKING, true],
      ["statusUpdate", TaskState.TASK_STATE_WORKING, true],
      ["artifactUpdate", undefined, true],
      ["statusUpdate", TaskState.TASK_STATE_COMPLETED, true],
    ]);
    const artifact = steps[2]?.update.payload;
    expect(artifact?.$case === "artifactUpdate" && artifact.value).toMatchObject({
      lastChunk: true,
      artifact: { parts: [{ content: { $case: "text", value: "hello" } }] },
    });
    expect(steps.map((s) => s.phase)).toEqual(["active", "active", "active", "terminal"]);
    expect(p.task.history.map((m) => m.metadata?.adk_author)).toEqual(["helper"]);
  });

  it("AS03: an error event ends the task failed with its message and adk_error_code, and no artifact", () => {
    const p = projection();
    p.event(event({ content: { role: "model", parts: [{ text: "partly" }] } }));
    expect(p.event(event({ errorCode: "E", errorMessage: "boom" }))).toEqual([]);
    const steps = p.finish();
    expect(shape(steps)).toEqual([["statusUpdate", TaskState.TASK_STATE_FAILED, true]]);
    const status = steps[0]?.update.payload;
    const message = status?.$case === "statusUpdate" ? status.value.status?.message : undefined;
    expect(message?.parts[0]?.content).toEqual({ $case: "text", value: "boom" });
    expect(message?.metadata?.adk_error_code).toBe("E");
    expect(p.task.artifacts).toEqual([]);
  });

  it("AS05: a long-running call keeps the update working and ends input-required with that call as the message", () => {
    const p = projection();
    const call = { functionCall: { id: "c-1", name: "approve", args: {} } };
    const [working] = p.event(
      event({ content: { role: "model", parts: [call] }, longRunningToolIds: ["c-1"] }),
    );
    expect(shape(working ? [working] : [])).toEqual([["statusUpdate", TaskState.TASK_STATE_WORKING, true]]);
    const [last] = p.finish();
    const payload = last?.update.payload;
    expect(payload?.$case === "statusUpdate" && payload.value.status?.state).toBe(
      TaskState.TASK_STATE_INPUT_REQUIRED,
    );
    expect(last?.phase).toBe("interrupted");
    const part = payload?.$case === "statusUpdate" ? payload.value.status?.message?.parts[0] : undefined;
    expect(part).toMatchObject({
      content: { $case: "data", value: call.functionCall },
      metadata: { adk_type: "function_call" },
    });
  });

  it("sends partial text without storing it, and ignores the store's cancel marker", () => {
    const p = projection();
    const [partial] = p.event(event({ partial: true, content: { role: "model", parts: [{ text: "hel" }] } }));
    expect(partial?.store).toBe(false);
    expect(p.task.history).toEqual([]);
    expect(p.event(event({ errorCode: "TURN_CANCELED", errorMessage: "canceled" }))).toEqual([]);
    expect(shape(p.finish()).at(-1)).toEqual(["statusUpdate", TaskState.TASK_STATE_COMPLETED, true]);
  });
});
