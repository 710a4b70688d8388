import { describe, expect, it } from "vitest";
import { transferInstruction } from "../../../src/transfer/transfer-instruction.js";
import { transferOffer } from "../../../src/transfer/transfer-offer.js";
import { agentIn, llm, T1 } from "../fixtures/tree-t1.js";

describe("transferOffer", () => {
  it.each([
    ["billing", ["refunds", "root", "faq", "solo", "pipeline", "remote"]],
    ["faq", ["billing", "solo", "pipeline", "remote"]],
    ["solo", ["root"]],
    ["step1", ["helper"]],
  ])("offers %s its targets, the matching enum and instruction block", (name, expected) => {
    const agent = agentIn(T1, name);
    const offer = transferOffer(agent);
    expect(offer?.targets.map((t) => t.name)).toEqual(expected);
    expect(offer?.declaration.parameters.properties.agent_name.enum).toEqual(expected);
    expect(offer?.instruction).toBe(transferInstruction(agent, offer?.targets ?? []));
  });

  it("offers nothing to an agent without targets: no tool and no instruction", () => {
    expect(transferOffer(llm("alone"))).toBeUndefined();
    expect(transferOffer(agentIn(T1, "remote"))).toBeUndefined();
  });
});
