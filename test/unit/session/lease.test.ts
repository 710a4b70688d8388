import { describe, expect, it } from "vitest";
import { judgeLease, leaseError, parseLeaseTtl } from "../../../src/session/lease.js";

describe("judgeLease", () => {
  const live = { token: "t1", expiresAt: 1_000 };

  it.each([
    ["no lease is held and none is presented", null, undefined, 0, "ok"],
    ["a live lease is held and none is presented", live, undefined, 999, "busy"],
    ["the held lease has expired and none is presented", live, undefined, 1_000, "ok"],
    ["the live lease is presented", live, "t1", 999, "ok"],
    ["the presented lease expired at this instant", live, "t1", 1_000, "lost"],
    ["another lease is presented while one is live", live, "t0", 0, "lost"],
    ["a lease is presented when none is held", null, "t1", 0, "lost"],
  ] as const)("says so when %s", (_, current, presented, now, verdict) => {
    expect(judgeLease(current, presented, now)).toBe(verdict);
  });
});

describe("leaseError", () => {
  it("turns busy into a 409 session_busy and lost into lease_lost", () => {
    expect(leaseError("busy", "s1")).toMatchObject({ code: "session_busy", status: 409, blame: "user" });
    expect(leaseError("lost", "s1")).toMatchObject({ code: "lease_lost", status: 409, blame: "internal" });
  });
});

describe("parseLeaseTtl", () => {
  it("reads a positive number of milliseconds and ignores anything else", () => {
    expect(parseLeaseTtl("5000")).toBe(5_000);
    expect(parseLeaseTtl(undefined)).toBeUndefined();
    expect(parseLeaseTtl("")).toBeUndefined();
    expect(parseLeaseTtl("0")).toBeUndefined();
    expect(parseLeaseTtl("-1")).toBeUndefined();
    expect(parseLeaseTtl("soon")).toBeUndefined();
  });
});
