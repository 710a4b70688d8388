import { describe, expect, it } from "vitest";
import { transferFromOutput, transferOutput } from "../../../src/transfer/transfer-output.js";

describe("the structured transfer output", () => {
  it("is { status: 'transferred', agent_name } and is read back as the target's name", () => {
    expect(transferOutput("billing")).toEqual({ status: "transferred", agent_name: "billing" });
    expect(transferFromOutput(transferOutput("billing"))).toBe("billing");
  });

  it.each([
    [{ result: null }],
    [{ error: 'Cannot transfer to "x"' }],
    [{ status: "transferred" }],
    [{ status: "transferred", agent_name: "" }],
    [{ status: "done", agent_name: "billing" }],
    ["transferred"],
    [null],
    [undefined],
  ])("recognises no transfer in %j", (output) => {
    expect(transferFromOutput(output)).toBeUndefined();
  });
});
