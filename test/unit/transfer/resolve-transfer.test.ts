import { describe, expect, it } from "vitest";
import { resolveTransfer } from "../../../src/transfer/resolve-transfer.js";
import { transferCallPart, transferResponsePart } from "../../../src/transfer/transfer-parts.js";
import { agentIn, T1 } from "../fixtures/tree-t1.js";

describe("resolveTransfer", () => {
  it.each([
    ["billing", "refunds", "a sub-agent"],
    ["billing", "root", "the parent"],
    ["billing", "faq", "a peer"],
    ["faq", "solo", "a peer of an agent that may not go back to its parent"],
    ["solo", "root", "the parent of an agent that may not reach its peers"],
    ["step1", "helper", "a sub-agent under a workflow parent"],
    ["root", "remote", "a remote sub-agent"],
  ])("lets %s transfer to %s, %s", (caller, requested) => {
    const outcome = resolveTransfer(agentIn(T1, caller), requested);
    expect(outcome).toEqual({ kind: "transfer", target: agentIn(T1, requested) });
    if (outcome.kind === "transfer") expect(outcome.target).toBe(agentIn(T1, requested));
  });

  it.each([
    ["T10", "root", "nonexistent", "a name not in the tree"],
    ["T11", "solo", "billing", "a peer when peers are disallowed"],
    ["-", "faq", "root", "the parent when the parent is disallowed"],
    ["-", "root", "root", "itself"],
    ["-", "root", "refunds", "a grandchild"],
    ["-", "step1", "pipeline", "a workflow parent"],
    ["-", "billing", "Refunds", "a name that differs in case"],
  ])("%s: refuses %s's transfer to %s, %s", (_case, caller, requested) => {
    const outcome = resolveTransfer(agentIn(T1, caller), requested);
    expect(outcome.kind).toBe("invalid");
    if (outcome.kind === "invalid") expect(outcome.response.error).toContain(`"${requested}"`);
  });

  it("lists the valid targets, sorted, in the error (T10)", () => {
    const outcome = resolveTransfer(agentIn(T1, "billing"), "nonexistent");
    expect(outcome).toEqual({
      kind: "invalid",
      response: {
        error: expect.stringContaining(
          "Valid targets: `faq`, `pipeline`, `refunds`, `remote`, `root`, `solo`.",
        ),
      },
    });
  });

  it("names the only valid target of an agent that forbids peers (T11)", () => {
    const outcome = resolveTransfer(agentIn(T1, "solo"), "billing");
    expect(outcome.kind === "invalid" && outcome.response.error).toMatch(
      /"billing".*Valid targets: `root`\.$/,
    );
  });

  it.each([
    ["a number", 42],
    ["null", null],
    ["undefined", undefined],
    ["an object", { name: "billing" }],
    ["an empty string", ""],
  ])("refuses %s as the agent name without throwing", (_what, requested) => {
    const outcome = resolveTransfer(T1, requested);
    expect(outcome.kind).toBe("invalid");
    if (outcome.kind === "invalid") {
      expect(outcome.response.error).toMatch(/agent_name/);
      expect(outcome.response.error).toContain("`billing`");
    }
  });

  it("says so when the caller has no targets at all", () => {
    const outcome = resolveTransfer(agentIn(T1, "remote"), "root");
    expect(outcome.kind === "invalid" && outcome.response.error).toMatch(/no transfer targets/);
  });
});

describe("transferCallPart and transferResponsePart", () => {
  it("answer an accepted transfer with Python's {result: null}, a fresh object each time", () => {
    expect(transferResponsePart("adk-1")).toEqual({
      functionResponse: { id: "adk-1", name: "transfer_to_agent", response: { result: null } },
    });
    expect(transferResponsePart("adk-1")).not.toBe(transferResponsePart("adk-1"));
  });

  it("call transfer_to_agent with the target in agent_name, under the same id", () => {
    expect(transferCallPart("adk-1", "billing")).toEqual({
      functionCall: { id: "adk-1", name: "transfer_to_agent", args: { agent_name: "billing" } },
    });
  });
});
