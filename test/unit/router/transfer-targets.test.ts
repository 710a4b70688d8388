import { describe, expect, it } from "vitest";
import type { AgentNode } from "../../../src/router/agent-node.js";
import { isTransferable, transferTargets } from "../../../src/router/transfer-targets.js";
import { agentIn, buildT1, llm, T1 } from "../fixtures/tree-t1.js";

const names = (agents: readonly AgentNode[]) => agents.map((agent) => agent.name);
const R14_TREE = buildT1({ disallowTransferToParent: true });

describe("transferTargets", () => {
  it.each([
    [
      "T01",
      "root",
      ["billing", "faq", "solo", "pipeline", "remote"],
      "sub-agents in declared order, no parent",
    ],
    [
      "T02",
      "billing",
      ["refunds", "root", "faq", "solo", "pipeline", "remote"],
      "sub-agents, parent, then peers",
    ],
    ["T03", "solo", ["root"], "the parent only when peers are disallowed"],
    ["T04", "faq", ["billing", "solo", "pipeline", "remote"], "the peers only when the parent is disallowed"],
    ["T05", "step1", ["helper"], "no parent or peers under a workflow parent"],
    ["-", "helper", ["step1"], "an LLM parent with no other children"],
    ["-", "refunds", ["billing"], "an LLM parent with no other children"],
    ["-", "pipeline", [], "nothing for a workflow agent, even with sub-agents"],
    ["-", "remote", [], "nothing for a remote agent"],
  ])("%s: %s gets %j (%s)", (_case, agent, expected) => {
    expect(names(transferTargets(agentIn(T1, agent)))).toEqual(expected);
  });

  it("returns the tree's own agent objects", () => {
    expect(transferTargets(agentIn(T1, "solo"))[0]).toBe(T1);
  });

  it("offers nothing to an agent that forbids both directions and has no sub-agents (T07)", () => {
    const root = llm("root", {}, [
      llm("lonely", { disallowTransferToParent: true, disallowTransferToPeers: true }),
    ]);
    expect(transferTargets(agentIn(root, "lonely"))).toEqual([]);
  });

  it("keeps duplicate names, as ADK does", () => {
    const root = llm("root", {}, [llm("a", {}, [llm("b")]), llm("b")]);
    expect(names(transferTargets(agentIn(root, "a")))).toEqual(["b", "root", "b"]);
  });
});

describe("isTransferable", () => {
  it.each([
    ["root", true],
    ["billing", true],
    ["refunds", true],
    ["solo", true],
    ["faq", false],
    ["pipeline", false],
    ["step1", false],
    ["helper", false],
    ["remote", false],
  ])("in T1, %s is %s", (agent, expected) => {
    expect(isTransferable(agentIn(T1, agent))).toBe(expected);
  });

  it.each(["root", "billing", "refunds", "solo"])(
    "makes %s non-sticky when the root disallows transfer to its parent (R14)",
    (agent) => {
      expect(isTransferable(agentIn(R14_TREE, agent))).toBe(false);
    },
  );
});
