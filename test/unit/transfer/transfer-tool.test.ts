import { describe, expect, it } from "vitest";
import type { ToolDeclaration } from "../../../src/core/llm.js";
import type { AgentNode } from "../../../src/router/agent-node.js";
import { transferTargets } from "../../../src/router/transfer-targets.js";
import { AGENT_NAME_PARAM, TRANSFER_TOOL_NAME } from "../../../src/transfer/constants.js";
import { transferToolDeclaration } from "../../../src/transfer/transfer-tool.js";
import { agentIn, llm, T1 } from "../fixtures/tree-t1.js";

const declarationFor = (agent: AgentNode): ToolDeclaration => transferToolDeclaration(transferTargets(agent));

describe("transferToolDeclaration", () => {
  it("declares transfer_to_agent with one required string parameter agent_name", () => {
    const declaration = declarationFor(T1);
    expect(TRANSFER_TOOL_NAME).toBe("transfer_to_agent");
    expect(AGENT_NAME_PARAM).toBe("agent_name");
    expect(declaration.name).toBe("transfer_to_agent");
    expect(declaration.parameters).toMatchObject({
      type: "object",
      properties: { agent_name: { type: "string" } },
      required: ["agent_name"],
    });
  });

  it.each([
    ["billing", ["refunds", "root", "faq", "solo", "pipeline", "remote"]],
    ["root", ["billing", "faq", "solo", "pipeline", "remote"]],
    ["solo", ["root"]],
    ["step1", ["helper"]],
  ])("lists %s's targets in target order in the enum (T06)", (agent, expected) => {
    const declaration = transferToolDeclaration(transferTargets(agentIn(T1, agent)));
    expect(declaration.parameters.properties.agent_name.enum).toEqual(expected);
  });

  it("describes the hand-off with ADK's docstring and leaves the agent_name property undescribed, as ADK does", () => {
    const { description, parameters } = transferToolDeclaration(transferTargets(T1));
    expect(description.startsWith("Transfer the question to another agent.\n\n  This tool hands off")).toBe(
      true,
    );
    expect(description.endsWith("agent_name: the agent name to transfer to.\n  ")).toBe(true);
    expect(Object.keys(parameters.properties.agent_name).sort()).toEqual(["enum", "type"]);
  });

  it("builds a fresh declaration each time, so a caller cannot corrupt the next one", () => {
    const first = transferToolDeclaration(transferTargets(T1));
    first.parameters.properties.agent_name.enum.push("ghost");
    expect(transferToolDeclaration(transferTargets(T1)).parameters.properties.agent_name.enum).not.toContain(
      "ghost",
    );
  });
});

describe("who is offered the tool: an agent with transfer targets", () => {
  const lonelyTree = llm("root", {}, [
    llm("lonely", { disallowTransferToParent: true, disallowTransferToPeers: true }),
  ]);

  it.each([
    ["root", T1, true],
    ["billing", T1, true],
    ["faq", T1, true],
    ["step1", T1, true],
    ["pipeline", T1, false],
    ["remote", T1, false],
    ["lonely", lonelyTree, false],
  ])("offers the tool to %s: %s", (agent, tree, expected) => {
    expect(transferTargets(agentIn(tree, agent)).length > 0).toBe(expected);
  });

  it("offers nothing to a lone root with no sub-agents", () => {
    expect(transferTargets(llm("alone"))).toEqual([]);
  });
});
