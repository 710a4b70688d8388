import { describe, expect, it } from "vitest";
import { identityInstruction, readIdentity } from "../../../src/transfer/agent-identity.js";

describe("identityInstruction", () => {
  it("states the name and the description in ADK Python's words", () => {
    expect(identityInstruction({ name: "billing", description: "Invoices and refunds." })).toBe(
      'You are an agent. Your internal name is "billing". The description about you is "Invoices and refunds.".',
    );
  });

  it("leaves the description sentence out when the agent has none", () => {
    expect(identityInstruction({ name: "solo", description: "" })).toBe(
      'You are an agent. Your internal name is "solo".',
    );
  });

  it.each([
    { name: "billing", description: 'Says "hi". Then helps.' },
    { name: "solo", description: "" },
  ])("reads back what it states ($name)", (agent) => {
    expect(readIdentity(`Be kind.\n\n${identityInstruction(agent)}\n\nMore.`)).toEqual(agent);
  });

  it("reads nothing from a text without an identity line", () => {
    expect(readIdentity("You are a helpful assistant.")).toBeUndefined();
  });
});
