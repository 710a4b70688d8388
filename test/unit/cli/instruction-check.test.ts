import { describe, expect, it } from "vitest";
import { PATCH_NOTICE, scopeInstructionCheck } from "../../../src/cli/instruction-check.js";

/**
 * The dev UI's check as ADK's 2.0.0 bundle minifies it (one statement of `main-*.js`, names as the
 * minifier left them), wrapped in a function so the test can run it on spans and events of its own.
 */
const BUNDLED = `function flags(i,eventData){let ZO=t=>t?.config?.system_instruction;for(let n=1;n<i.length;n++){let o=i[n],a=i[n-1],r=ZO(o.io?.inputs),s=ZO(a.io?.inputs);if(r&&s&&r!==s){let l=o.attrEventId;if(l){let c=eventData.get(l);c&&(c.systemInstructionChanged=!0,c.precedingSystemInstruction=s,c.currentSystemInstruction=r)}}}}`;

/** A model span as the UI keeps it: its agent, the event it made, the request's system instruction. */
const span = (agent: string, eventId: string, instruction: string) => ({
  attrAgentName: agent,
  attrEventId: eventId,
  io: { inputs: { config: { system_instruction: instruction } } },
});

/** Runs the UI's check (patched or not) and returns the events it flags "Performance". */
function flagged(source: string, spans: ReturnType<typeof span>[]): string[] {
  const events = new Map(spans.map((s) => [s.attrEventId, {} as { systemInstructionChanged?: boolean }]));
  const check = new Function("spans", "events", `${source}; flags(spans, events);`);
  check(spans, events);
  return [...events].filter(([, e]) => e.systemInstructionChanged).map(([id]) => id);
}

// A turn with a transfer, then a turn in which billing's own instruction changed ({state} filled anew).
const TURNS = [
  span("concierge", "e1", "You are the concierge."),
  span("billing", "e2", "You are billing. Plan: free."),
  span("billing", "e3", "You are billing. Plan: free."),
  span("billing", "e4", "You are billing. Plan: pro."),
  span("concierge", "e5", "You are the concierge."),
];

describe("the dev UI's system-instruction check, scoped per agent", () => {
  it("as ADK ships it, flags every hand-off to another agent", () => {
    expect(flagged(BUNDLED, TURNS)).toEqual(["e2", "e4", "e5"]);
  });

  it("once patched, flags only a change within one agent's own model calls", () => {
    const patched = scopeInstructionCheck(BUNDLED);
    expect(patched?.startsWith(PATCH_NOTICE)).toBe(true);
    expect(flagged(patched ?? "", TURNS)).toEqual(["e4"]);
  });

  it("matches whatever names the minifier chose", () => {
    const renamed = BUNDLED.replaceAll("ZO", "$q").replace(/\bo\b(?=[=.[])/g, "u");
    expect(renamed).not.toBe(BUNDLED);
    expect(flagged(scopeInstructionCheck(renamed) ?? "", TURNS)).toEqual(["e4"]);
  });

  it("leaves a file without the check, or one patched already, untouched", () => {
    expect(scopeInstructionCheck("console.log(1);")).toBeUndefined();
    expect(scopeInstructionCheck(scopeInstructionCheck(BUNDLED) ?? "")).toBeUndefined();
  });

  it("refuses a file with two such checks rather than guess", () => {
    expect(() => scopeInstructionCheck(`${BUNDLED}\n${BUNDLED.replace("flags", "again")}`)).toThrow(
      /2 system-instruction checks/,
    );
  });
});
