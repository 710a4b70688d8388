import { describe, expect, it } from "vitest";
import type { AgentNode } from "../../../src/router/agent-node.js";
import { transferTargets } from "../../../src/router/transfer-targets.js";
import { transferInstruction } from "../../../src/transfer/transfer-instruction.js";
import { agentIn, llm, T1 } from "../fixtures/tree-t1.js";

const instructionFor = (agent: AgentNode) => transferInstruction(agent, transferTargets(agent));
const PARENT_SENTENCE = /transfer to your parent agent (\w+)\./;

describe("transferInstruction", () => {
  it.each(["root", "billing", "solo", "faq", "step1"])(
    "lists each target of %s with its description",
    (name) => {
      const agent = agentIn(T1, name);
      const text = instructionFor(agent);
      for (const target of transferTargets(agent)) {
        expect(text).toContain(`Agent name: ${target.name}\nAgent description: ${target.description}\n`);
      }
    },
  );

  it("lists the targets in target order", () => {
    const text = instructionFor(agentIn(T1, "billing"));
    const order = [...text.matchAll(/^Agent name: (\w+)$/gm)].map((match) => match[1]);
    expect(order).toEqual(["refunds", "root", "faq", "solo", "pipeline", "remote"]);
  });

  it("names the valid agents sorted in the NOTE line (T06)", () => {
    expect(instructionFor(agentIn(T1, "billing"))).toContain(
      "NOTE: the only valid agent names are `faq`, `pipeline`, `refunds`, `remote`, `root`, `solo`.",
    );
  });

  it("tells the model to answer itself when it fits, and to call only the function when transferring", () => {
    const text = instructionFor(T1);
    expect(text).toMatch(/best agent for the question, answer it yourself/);
    expect(text).toContain("`transfer_to_agent`");
    expect(text).toContain("output nothing besides the function call");
  });

  it.each([
    ["billing", "root"],
    ["solo", "root"],
    ["refunds", "billing"],
    ["step1", "pipeline"], // T05: Python's quirk, the parent is named although it is not a target
  ])("closes %s's block by pointing to its parent %s", (name, parent) => {
    expect(instructionFor(agentIn(T1, name)).match(PARENT_SENTENCE)?.[1]).toBe(parent);
  });

  it.each([
    ["root", "it has no parent"],
    ["faq", "it may not transfer to its parent"],
  ])("leaves the parent sentence out for %s: %s", (name) => {
    expect(instructionFor(agentIn(T1, name))).not.toMatch(PARENT_SENTENCE);
  });

  it.each([
    ["pipeline", T1],
    ["remote", T1],
    [
      "lonely",
      llm("root", {}, [llm("lonely", { disallowTransferToParent: true, disallowTransferToPeers: true })]),
    ],
  ])("is empty for %s, which has no targets (T07)", (name, tree) => {
    expect(instructionFor(agentIn(tree, name))).toBe("");
  });
});
