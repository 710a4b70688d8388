import { describe, expect, it } from "vitest";
import { MAX_TURN_HOSTS, registerTurnHost, type TurnHost, turnHost } from "../../../src/turns/turn-hosts.js";

const host = (): TurnHost => ({ start: () => Promise.reject(new Error("not started in this test")) });

describe("turn hosts (decision 040)", () => {
  it("names hosts in the order they are registered, finds each by its name, and stops registering past the cap", () => {
    const first = host();
    const firstName = registerTurnHost(first);
    expect(firstName).toBe("worker-1");
    expect(turnHost("worker-1")).toBe(first);
    expect(turnHost("worker-0")).toBeUndefined();
    for (let i = 2; i <= MAX_TURN_HOSTS; i++) expect(registerTurnHost(host())).toBe(`worker-${i}`);
    expect(registerTurnHost(host())).toBeUndefined();
    expect(registerTurnHost(host())).toBeUndefined();
    expect(turnHost(`worker-${MAX_TURN_HOSTS + 1}`)).toBeUndefined();
  });
});
