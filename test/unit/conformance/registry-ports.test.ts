import { describe, expect, it } from "vitest";
import { conformanceRegistry } from "../../../scripts/conformance/registry.js";
import { loadAgentConfig } from "../../../src/config/load-agent-config.js";
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
