import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import {
  LOAD_ARTIFACTS_DECLARATION,
  LOAD_MEMORY_DECLARATION,
  PRELOAD_MEMORY_TOOL_NAME,
} from "../../../src/agents/builtin-declarations.js";
import { exitLoop } from "../../../src/agents/exit-loop-tool.js";
import { functionTool } from "../../../src/agents/function-tool.js";
import { getUserChoice } from "../../../src/agents/get-user-choice-tool.js";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import { loadAgentConfig } from "../../../src/config/load-agent-config.js";
import type { ToolDeclaration } from "../../../src/core/llm.js";
import { transferTargets } from "../../../src/router/transfer-targets.js";
import { transferToolDeclaration } from "../../../src/transfer/transfer-tool.js";

const FIXTURES = join(dirname(fileURLToPath(import.meta.url)), "../fixtures/adk-declarations");

/** A fixture: ADK Python 1.19's declaration as it sends it to Gemini (upper-case types), or null for none. */
const fixture = (name: string): unknown =>
  (JSON.parse(readFileSync(join(FIXTURES, `${name}.json`), "utf8")) as { declaration: unknown }).declaration;

/** Baton's declaration as Gemini receives it from ADK: the same fields, JSON Schema's type names upper-cased. */
function asGemini(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(asGemini);
  if (typeof value !== "object" || value === null) return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, field]) => [
      key,
      key === "type" && typeof field === "string" ? field.toUpperCase() : asGemini(field),
    ]),
  );
}

const expectSame = (baton: ToolDeclaration | undefined, name: string) =>
  expect(JSON.stringify(asGemini(baton))).toBe(JSON.stringify(fixture(name)));

const confirmable = (requireConfirmation: boolean) =>
  functionTool({
    name: "reimburse",
    description: "Reimburse the amount of money to the employee.",
    parameters: z.object({ purpose: z.string(), amount: z.number() }),
    requireConfirmation,
    execute: () => "ok",
  });

describe("Baton's built-in declarations equal ADK Python 1.19's, field for field and byte for byte", () => {
  it("declares exit_loop with the raw docstring and no parameters at all", () => {
    expectSame(exitLoop.declaration(), "exit_loop");
    expect(exitLoop.declaration()).not.toHaveProperty("parameters");
  });

  it("declares transfer_to_agent with ADK's docstring and an enum of the targets in order", () => {
    const sub = (name: string) => new LlmAgent({ name, model: "demo:" });
    const root = new LlmAgent({
      name: "study_buddy_coordinator",
      model: "demo:",
      subAgents: [sub("math_tutor"), sub("science_tutor"), sub("history_tutor")],
    });
    expectSame(transferToolDeclaration(transferTargets(root)), "transfer_to_agent");
  });

  it("declares get_user_choice as ADK's long-running tool, with its note", () => {
    expectSame(getUserChoice.declaration(), "get_user_choice");
    expect(getUserChoice.isLongRunning).toBe(true);
  });

  it("exports load_artifacts and load_memory as ADK declares them, and nothing for preload_memory", () => {
    expectSame(LOAD_ARTIFACTS_DECLARATION, "load_artifacts");
    expectSame(LOAD_MEMORY_DECLARATION, "load_memory");
    expect(fixture(PRELOAD_MEMORY_TOOL_NAME)).toBeNull();
  });

  it("adds ADK's long-running note to a long-running function tool, in code and from YAML", () => {
    const approval = {
      name: "ask_for_approval",
      description: "Ask for approval for the reimbursement.",
      parameters: z.object({ purpose: z.string(), amount: z.number() }),
      execute: () => null,
    };
    expectSame(functionTool({ ...approval, isLongRunning: true }).declaration(), "long_running_function");
    const root = loadAgentConfig({
      files: {
        "root_agent.yaml":
          'name: root\nmodel: "demo:"\ntools:\n  - name: LongRunningFunctionTool\n    args:\n      func: app.ask\n',
      },
      registry: { tools: { "app.ask": functionTool(approval) } },
    });
    const tool = root instanceof LlmAgent ? root.toolsByName.get("ask_for_approval") : undefined;
    expectSame(tool?.declaration(), "long_running_function");
  });

  it("declares a tool that asks for confirmation exactly as the same tool without", () => {
    expectSame(confirmable(true).declaration(), "confirmation_function");
    expectSame(confirmable(false).declaration(), "confirmation_function");
  });

  it("declares a function tool built from a zod schema as ADK declares the same Python parameters", () => {
    const booking = functionTool({
      name: "create_booking",
      description:
        "Creates a booking for a user.\n\n  Args:\n    user_id: The unique identifier for the user.\n" +
        "    is_confirmed: Whether the booking is confirmed.\n    details: Any additional details for the booking.\n" +
        "    tags: Labels for the booking.\n  ",
      parameters: z.object({
        user_id: z.number().int(),
        is_confirmed: z.boolean(),
        details: z.string(),
        tags: z.array(z.string()),
      }),
      execute: () => ({}),
    });
    expectSame(booking.declaration(), "function_from_schema");
  });

  it("leaves parameters out for a function tool that takes no arguments, as ADK does", () => {
    const tool = functionTool({
      name: "ping",
      description: "Pings.",
      parameters: z.object({}),
      execute: () => 1,
    });
    expect(tool.declaration()).toEqual({ name: "ping", description: "Pings." });
  });

  it("marks an optional nullable argument nullable and leaves it out of required", () => {
    const tool = functionTool({
      name: "find",
      description: "Finds.",
      parameters: z.object({ query: z.string(), limit: z.number().int().nullish() }),
      execute: () => [],
    });
    expect(tool.declaration().parameters).toEqual({
      type: "object",
      properties: { query: { type: "string" }, limit: { type: "integer", nullable: true } },
      required: ["query"],
    });
  });
});
