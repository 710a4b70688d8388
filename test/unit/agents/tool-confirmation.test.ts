import { describe, expect, it } from "vitest";
import { z } from "zod";
import { functionTool } from "../../../src/agents/function-tool.js";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import type { Content } from "../../../src/core/content.js";
import { harness } from "../support/harness.js";
import { collect } from "../support/run-helpers.js";
import { scriptedModel } from "../support/scripted-model.js";

const confirm = (id: string, answer: Record<string, unknown>): Content => ({
  role: "user",
  parts: [{ functionResponse: { id, name: "adk_request_confirmation", response: answer } }],
});

describe("LlmAgent: tools that need the user's confirmation (ADK require_confirmation)", () => {
  it("asks with a long-running adk_request_confirmation call before the error response, and runs the tool once approved", async () => {
    const deleted: string[] = [];
    const remove = functionTool({
      name: "delete_file",
      description: "Deletes a file",
      parameters: z.object({ path: z.string() }),
      requireConfirmation: true,
      execute: ({ path }) => {
        deleted.push(path);
        return { deleted: path };
      },
    });
    const model = scriptedModel([
      { calls: [{ name: "delete_file", args: { path: "a.txt" }, id: "d1" }] },
      { text: "Please confirm the deletion." },
      { text: "Deleted a.txt" },
    ]);
    const h = await harness(new LlmAgent({ name: "root", model, tools: [remove] }));
    const first = await h.turn("delete a.txt");
    const kinds = first.map((e) => {
      const part = e.content?.parts?.[0];
      return part?.functionCall?.name ?? part?.functionResponse?.name ?? part?.text;
    });
    expect(kinds).toEqual([
      "delete_file",
      "adk_request_confirmation",
      "delete_file",
      "Please confirm the deletion.",
    ]);
    const request = first[1];
    const requestId = request?.content?.parts?.[0]?.functionCall?.id ?? "";
    expect(request?.longRunningToolIds).toEqual([requestId]);
    expect(first[2]?.actions.requestedToolConfirmations).toMatchObject({ d1: { confirmed: false } });
    expect(deleted).toEqual([]);

    const second = await collect(h.runner, {
      userId: "u",
      sessionId: "s",
      newMessage: confirm(requestId, { confirmed: true }),
    });
    expect(deleted).toEqual(["a.txt"]);
    expect(
      second.map((e) => e.content?.parts?.[0]?.functionResponse?.response ?? e.content?.parts?.[0]?.text),
    ).toEqual([{ deleted: "a.txt" }, "Deleted a.txt"]);
  });

  it("ignores an answer to a confirmation the agent never asked for", async () => {
    const model = scriptedModel([{ text: "nothing to confirm" }]);
    const h = await harness(new LlmAgent({ name: "root", model }));
    await h.turn("hi");
    const events = await collect(h.runner, {
      userId: "u",
      sessionId: "s",
      newMessage: confirm("nope", { confirmed: true }),
    });
    expect(events.map((e) => e.content?.parts?.[0]?.text)).toEqual(["nothing to confirm"]);
  });
});
