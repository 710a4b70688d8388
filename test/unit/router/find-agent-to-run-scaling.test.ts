import { describe, expect, it } from "vitest";
import type { Event } from "../../../src/core/event.js";
import { findAgentToRun } from "../../../src/router/find-agent-to-run.js";
import { history } from "../fixtures/history.js";
import { T1 } from "../fixtures/tree-t1.js";

const SESSION_LENGTH = 100_000;

/** `old` repeated up to `SESSION_LENGTH - tail.length` events, then `tail`; with a counter of index reads. */
function longSession(old: readonly Event[], tail: readonly Event[]) {
  const events = Array.from({ length: SESSION_LENGTH - tail.length }, (_, i) => old[i % old.length]).filter(
    (event): event is Event => event !== undefined,
  );
  events.push(...tail);
  const counter = { reads: 0 };
  const watched = new Proxy(events, {
    get(target, key, receiver) {
      if (typeof key === "string" && /^\d+$/.test(key)) counter.reads += 1;
      return Reflect.get(target, key, receiver);
    },
  });
  return { events: watched, counter };
}

// Old events that would decide differently if the scan reached them.
const OLD = history("U, solo:text").map((event) => ({ ...event, invocationId: "e-old" }));

describe("findAgentToRun on a long session", () => {
  it.each([
    ["the newest agent event", "U, billing:text, U", "billing"],
    ["a recent user function response", "U, remote:MOCKFC(f1), U:FR(f1)", "remote"],
    ["an unfinished transfer behind an error", "U, root:FR(billing), billing:ERR, U", "billing"],
    ["the event before a rewound invocation", "U, refunds:text, U, billing:text, REWIND(e2), U", "refunds"],
  ])("decides from %s without reading the old events", (_what, tail, expected) => {
    const { events, counter } = longSession(OLD, history(tail));
    expect(findAgentToRun(events, T1).name).toBe(expected);
    expect(counter.reads).toBeLessThanOrEqual(15);
  });

  it("counts a full scan when nothing decides, so the bound above can fail", () => {
    const { events, counter } = longSession(history("U"), history("U"));
    expect(findAgentToRun(events, T1).name).toBe("root");
    expect(counter.reads).toBeGreaterThanOrEqual(SESSION_LENGTH);
  });
});
