import { describe, expect, it } from "vitest";
import { conformanceRegistry } from "../../../scripts/conformance/registry.js";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import { functionToolsOf } from "../../../src/agents/request-tool.js";
import { loadAgentConfig } from "../../../src/config/load-agent-config.js";
import { requestProblems } from "../../../src/replay/request-check.js";
import { harness } from "../support/harness.js";
import { texts } from "../support/run-helpers.js";
import { scriptedModel } from "../support/scripted-model.js";

/** A one-agent YAML tree whose callbacks are named by their Python names, on a scripted model. */
function treeWith(callbacks: string) {
  const model = scriptedModel([{ text: "answered by the model" }]);
  const rootAgent = loadAgentConfig({
    files: { "root_agent.yaml": `name: helper\nmodel: m\n${callbacks}` },
    registry: conformanceRegistry,
    model: () => model,
  });
  return { rootAgent, model };
}

describe("the conformance registry's ports of ADK's Python callbacks", () => {
  it("callback_agent_001's before-agent callbacks write value1 then append +value2, in one state event", async () => {
    const { rootAgent } = treeWith(
      "before_agent_callbacks:\n" +
        "  - name: callback_agent_001.callbacks.before_agent_callback1\n" +
        "  - name: callback_agent_001.callbacks.before_agent_callback2\n",
    );
    const h = await harness(rootAgent);
    const events = await h.turn("hi");
    expect(events[0]?.actions.stateDelta).toEqual({ before_agent_callback_state_key: "value1+value2" });
    expect(texts(events)).toEqual([undefined, "answered by the model"]);
  });

  it("callback_agent_002's shortcut lets the first turn reach the model and answers the second itself", async () => {
    const { rootAgent, model } = treeWith(
      "before_agent_callbacks:\n  - name: callback_agent_002.callbacks.shortcut_agent_execution\n",
    );
    const h = await harness(rootAgent);
    expect(texts(await h.turn("first"))).toEqual([undefined, "answered by the model"]);
    const second = await h.turn("second");
    expect(texts(second)).toEqual(["Sorry, you have reached the limit of the conversation."]);
    expect(second[0]?.content?.role).toBe("model");
    expect(model.calls).toHaveLength(1);
    expect((await h.session()).state).toEqual({ conversation_limit_reached: "True" });
  });

  it("callback_agent_003's after-agent callbacks leave value1+value2 in state", async () => {
    const { rootAgent } = treeWith(
      "after_agent_callbacks:\n" +
        "  - name: callback_agent_003.callbacks.after_agent_callback1\n" +
        "  - name: callback_agent_003.callbacks.after_agent_callback2\n",
    );
    const h = await harness(rootAgent);
    await h.turn("hi");
    expect((await h.session()).state).toEqual({ after_agent_callback_state_key: "value1+value2" });
  });

  it("a port appending to a state key that is missing fails as the Python does", async () => {
    const { rootAgent } = treeWith(
      "before_agent_callbacks:\n  - name: callback_agent_001.callbacks.before_agent_callback2\n",
    );
    const h = await harness(rootAgent);
    const [event] = await h.turn("hi");
    expect(event?.errorMessage).toMatch(
      /state\["before_agent_callback_state_key"\] is undefined, not a string/,
    );
  });
});

/** tools_agent_002's declarations as ADK Python 1.16 recorded them (tool/function_001), genai form. */
const RECORDED_DECLARATIONS = [
  {
    name: "validate_email",
    description: "Checks if the provided string is a valid email format.",
    parameters: { type: "OBJECT", properties: { email: { type: "STRING" } }, required: ["email"] },
    response: { type: "BOOLEAN" },
  },
  {
    name: "get_user_id",
    description: "Retrieves a user ID based on their email.",
    parameters: { type: "OBJECT", properties: { email: { type: "STRING" } }, required: ["email"] },
    response: { type: "INTEGER" },
  },
  {
    name: "create_booking",
    description:
      "Creates a booking for a user.\n\n  Args:\n    user_id: The unique identifier for the user.\n    is_confirmed: Whether the booking is confirmed.\n    details: Any additional details for the booking.\n\n  Returns:\n    A dictionary containing the booking information and the types of the\n    received arguments.\n  ",
    parameters: {
      type: "OBJECT",
      properties: {
        user_id: { type: "INTEGER" },
        is_confirmed: { type: "BOOLEAN" },
        details: { type: "STRING" },
      },
      required: ["user_id", "is_confirmed", "details"],
    },
    response: { type: "OBJECT" },
  },
];

const TOOLS_002 = ["validate_email", "get_user_id", "create_booking"].map(
  (name) => `tools_agent_002.tools.${name}`,
);

describe("the conformance registry's ports of tools_agent_002's Python tools", () => {
  const { rootAgent, model } = treeWith(`tools:\n${TOOLS_002.map((n) => `  - name: ${n}\n`).join("")}`);

  it("declare themselves as ADK Python's automatic declarations were recorded", () => {
    const agent = rootAgent instanceof LlmAgent ? rootAgent : undefined;
    if (agent === undefined) throw new Error("not an LlmAgent");
    const live = {
      systemInstruction: "",
      contents: [],
      tools: functionToolsOf(agent.config.tools).map((t) => t.declaration()),
      config: {},
    };
    const recorded = (declarations: unknown[]) => ({
      contents: [],
      config: { tools: [{ function_declarations: declarations }] },
    });
    expect(requestProblems(live, recorded(RECORDED_DECLARATIONS), agent)).toEqual([]);
    const changed = structuredClone(RECORDED_DECLARATIONS);
    const booking = changed[2];
    if (booking === undefined) throw new Error("no create_booking declaration");
    booking.parameters.required = ["user_id"];
    expect(requestProblems(live, recorded(changed), agent).join("\n")).toMatch(
      /tools\[2\]\.parameters\.required/,
    );
    expect(model.calls).toHaveLength(0);
  });

  /** One turn of a fresh tools_agent_002 tree whose model calls `calls`, then says "done". */
  async function turnCalling(calls: { name: string; args: Record<string, unknown> }[]) {
    const scripted = scriptedModel([{ calls }, { text: "done" }]);
    const tree = loadAgentConfig({
      files: {
        "root_agent.yaml": `name: booker\nmodel: m\ntools:\n${TOOLS_002.map((n) => `  - name: ${n}\n`).join("")}`,
      },
      registry: conformanceRegistry,
      model: () => scripted,
    });
    return (await harness(tree)).turn("book it");
  }

  it("run as the Python does: validate the email and report the argument types", async () => {
    const events = await turnCalling([
      { name: "validate_email", args: { email: "not-an-email" } },
      { name: "create_booking", args: { user_id: 42, is_confirmed: true, details: "x" } },
    ]);
    const responses = events.flatMap(
      (e) => e.content?.parts?.flatMap((p) => (p.functionResponse ? [p.functionResponse] : [])) ?? [],
    );
    expect(responses.map((r) => [r.name, r.response])).toEqual([
      ["validate_email", { result: false }],
      [
        "create_booking",
        {
          user_id: 42,
          is_confirmed: true,
          details: "x",
          user_id_type: "<class 'int'>",
          is_confirmed_type: "<class 'bool'>",
          details_type: "<class 'str'>",
        },
      ],
    ]);
  });

  it("get_user_id raises on an invalid email as the Python's ValueError does, failing the turn", async () => {
    const events = await turnCalling([{ name: "get_user_id", args: { email: "not-an-email" } }]);
    expect(events.at(-1)?.errorCode).toBe("TOOL_ERROR");
    expect(events.at(-1)?.errorMessage).toContain("Invalid email format provided.");
  });
});
