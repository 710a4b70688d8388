import { describe, expect, it } from "vitest";
import type { AgentNode } from "../../../src/router/agent-node.js";
import { transferTargets } from "../../../src/router/transfer-targets.js";
import { readTransferTargets, transferInstruction } from "../../../src/transfer/transfer-instruction.js";
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
      "**NOTE**: the only available agents for `transfer_to_agent` function are\n" +
        "`faq`, `pipeline`, `refunds`, `remote`, `root`, `solo`.\n",
    );
  });

  it("writes ADK Python's text verbatim, line breaks included", () => {
    const parent = llm("desk", { description: "Front desk." }, [
      llm("tax", { description: "Taxes." }),
      llm("visa", { description: "Visas." }),
    ]);
    expect(instructionFor(agentIn(parent, "tax"))).toBe(
      "\nYou have a list of other agents to transfer to:\n\n\n" +
        "Agent name: desk\nAgent description: Front desk.\n\n\n" +
        "Agent name: visa\nAgent description: Visas.\n\n\n" +
        "If you are the best to answer the question according to your description,\nyou can answer it.\n\n" +
        "If another agent is better for answering the question according to its\n" +
        "description, call `transfer_to_agent` function to transfer the question to that\n" +
        "agent. When transferring, do not generate any text other than the function\ncall.\n\n" +
        "**NOTE**: the only available agents for `transfer_to_agent` function are\n`desk`, `visa`.\n\n" +
        "If neither you nor the other agents are best for the question, transfer to your parent agent desk.\n",
    );
  });

  it.each(["root", "billing", "step1"])("reads back the targets it states for %s, in order", (name) => {
    const agent = agentIn(T1, name);
    expect(readTransferTargets(`Some instruction.\n\n${instructionFor(agent)}`)).toEqual(
      transferTargets(agent).map((t) => ({ name: t.name, description: t.description })),
    );
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
