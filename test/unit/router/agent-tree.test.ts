import { describe, expect, it } from "vitest";
import { findAgent, findSubAgent } from "../../../src/router/agent-tree.js";
import { agentIn, llm, T1 } from "../fixtures/tree-t1.js";

describe("findAgent", () => {
  it.each(["root", "billing", "refunds", "faq", "solo", "pipeline", "step1", "helper", "remote"])(
    "finds %s anywhere in T1, the root included",
    (name) => {
      expect(findAgent(T1, name)).toBe(agentIn(T1, name));
    },
  );

  it.each(["ghost", "", "user", "Billing"])("returns undefined for %j, a name not in the tree", (name) => {
    expect(findAgent(T1, name)).toBeUndefined();
  });

  it("returns the depth-first first match when a name repeats", () => {
    const root = llm("root", {}, [llm("a", {}, [llm("twin", { description: "deep" })]), llm("twin")]);
    expect(findAgent(root, "twin")?.description).toBe("deep");
  });
});

describe("findSubAgent", () => {
  it("never returns the root itself", () => {
    expect(findSubAgent(T1, "root")).toBeUndefined();
  });

  it("finds a descendant below a workflow agent", () => {
    expect(findSubAgent(T1, "helper")).toBe(agentIn(T1, "helper"));
  });

  it("searches only below the given agent", () => {
    expect(findSubAgent(agentIn(T1, "billing"), "faq")).toBeUndefined();
    expect(findSubAgent(agentIn(T1, "billing"), "refunds")).toBe(agentIn(T1, "refunds"));
  });
});
