import { describe, expect, it } from "vitest";
import { BATON_CALLERS, isReservedUserId } from "../../../src/core/reserved-users.js";
import { queuedTurnUser } from "../../../src/webhooks/enqueue-turn.js";
import { TURN_ORIGINS } from "../../../src/webhooks/turn-record.js";

describe("the user of a queued turn's session", () => {
  it("is one of Baton's reserved users for every origin Baton starts itself, and the session's own for the rest", () => {
    const users = Object.fromEntries(
      TURN_ORIGINS.map((origin) => [origin, queuedTurnUser(origin, "u", "x")]),
    );
    expect(users).toEqual({
      webhook: "baton:webhook:u",
      schedule: "baton:schedule:u",
      email: "baton:email:u",
      reminder: "u",
      resume: "u",
    });
    // Every origin that starts a session of its own is a caller in the registry.
    for (const origin of TURN_ORIGINS)
      if (isReservedUserId(users[origin] ?? "")) expect(Object.keys(BATON_CALLERS)).toContain(origin);
  });

  it("keeps an id that is reserved already, and refuses one the prefix takes past the user id limit", () => {
    expect(queuedTurnUser("webhook", "baton:webhook:github", "x")).toBe("baton:webhook:github");
    expect(queuedTurnUser("email", "A2A_USER_c1", "x")).toBe("A2A_USER_c1");
    expect(() => queuedTurnUser("schedule", "u".repeat(310), "Schedule s")).toThrow(
      /Schedule s: userId: a user id is at most 320 characters/,
    );
  });
});
