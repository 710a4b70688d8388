import { describe, expect, it, vi } from "vitest";
import type { Event } from "../../../src/core/event.js";
import { findAgentToRun } from "../../../src/router/find-agent-to-run.js";
import { history } from "../fixtures/history.js";
import { buildT1, T1, type TestAgent } from "../fixtures/tree-t1.js";

interface Row {
  id: string;
  events: string;
  expected: string;
  why: string;
  tree?: TestAgent;
}

const R14_TREE = buildT1({ disallowTransferToParent: true });
const quiet = (_message: string): void => undefined;
const route = (events: readonly Event[], tree: TestAgent = T1) => findAgentToRun(events, tree, quiet).name;

// ADK-SEMANTICS §10.A; where [up] and [fix] differ, the [fix] answer.
const CONFORMANCE: Row[] = [
  { id: "R01", events: "", expected: "root", why: "an empty session goes to the root" },
  { id: "R02", events: "U", expected: "root", why: "a lone user message goes to the root" },
  {
    id: "R03",
    events: "U, root:text, U",
    expected: "root",
    why: "the root keeps a conversation it answered",
  },
  {
    id: "R04",
    events: "U, root:FC(billing), root:FR(billing), billing:text, U",
    expected: "billing",
    why: "a transferred-to LLM agent keeps the next turn",
  },
  {
    id: "R05",
    events:
      "U, root:FC(billing), root:FR(billing), billing:text, U, billing:FC(refunds), billing:FR(refunds), refunds:text, U",
    expected: "refunds",
    why: "a chain of LLM agents keeps the deepest one sticky",
  },
  {
    id: "R06",
    events: "U, root:FR(faq), faq:text, U",
    expected: "root",
    why: "faq forbids its parent, so it is not sticky",
  },
  {
    id: "R07",
    events: "U, root:FR(pipeline), step1:text, U",
    expected: "root",
    why: "an agent under a workflow agent is not sticky",
  },
  {
    id: "R08",
    events: "U, root:FR(remote), remote:text, U",
    expected: "root",
    why: "a remote agent is never sticky",
  },
  { id: "R09", events: "U, ghost:text, U", expected: "root", why: "an unknown author is skipped" },
  {
    id: "R10",
    events: "U, billing:text, ghost:text, U",
    expected: "billing",
    why: "an unknown author is not terminal",
  },
  { id: "R11", events: "U, billing:text, U, U", expected: "billing", why: "user events never count" },
  {
    id: "R12",
    events: "U, billing:text, billing:END",
    expected: "billing",
    why: "an end-of-agent checkpoint is skipped",
  },
  {
    id: "R13",
    events: "U, billing:text, refunds:AGENTSTATE",
    expected: "billing",
    why: "an agent-state checkpoint is skipped",
  },
  {
    id: "R14",
    events: "U, billing:text, U",
    expected: "root",
    why: "a root that forbids its parent makes every sub-agent non-sticky",
    tree: R14_TREE,
  },
  {
    id: "R15",
    events: "U, root:FC(billing), root:FR(billing), U",
    expected: "billing",
    why: "a transfer whose target failed before any event still routes to the target",
  },
  {
    id: "R16",
    events: "U, root:FR(billing), billing:ERR, U",
    expected: "billing",
    why: "the target's content-less error is skipped and the transfer redirects",
  },
  {
    id: "R17",
    events: "U, billing:text, U, billing:FR(refunds), refunds:ERR, U",
    expected: "refunds",
    why: "a sub-agent transfer redirects past the target's error",
  },
  {
    id: "R18",
    events: "U, root:FR(faq)",
    expected: "root",
    why: "a transfer to a valid but non-sticky target falls back to the author",
  },
  {
    id: "R19",
    events: "U, root:FR(remote), remote:ERRMSG",
    expected: "root",
    why: "an error with only errorMessage is skipped, and a remote target does not redirect",
  },
  {
    id: "R20",
    events: "U, billing:FR(nonexistent)",
    expected: "billing",
    why: "a hallucinated target falls back to the sticky author",
  },
  {
    id: "R21",
    events: "U, solo:FR(billing)",
    expected: "solo",
    why: "a peer transfer by an agent that forbids peers falls back to the author",
  },
  {
    id: "R22",
    events: "U, billing:FR(root), root:ERR",
    expected: "root",
    why: "a transfer to the parent redirects past the parent's error",
  },
  {
    id: "R23",
    events: "U, billing:text, billing:ERRC",
    expected: "billing",
    why: "an error event that keeps its content counts",
  },
  {
    id: "R24",
    events: "U, billing:text, billing:STATE",
    expected: "billing",
    why: "a state-only event counts",
  },
  {
    id: "R25",
    events: "U, root:FR(billing), billing:text, U, billing:ERR, U",
    expected: "billing",
    why: "the scan passes the error and finds the agent's text",
  },
  {
    id: "R26",
    events: "U, root:FR(billing), billing:ERR, faq:text",
    expected: "billing",
    why: "a non-sticky newer author is passed over and the transfer redirects",
  },
  {
    id: "R27",
    events: "U, remote:MOCKFC(f1), U:FR(f1)",
    expected: "remote",
    why: "a user's function response goes to the caller, sticky or not",
  },
  {
    id: "R28",
    events: "U, billing:text, U, ghost:MOCKFC(f9), U:FR(f9)",
    expected: "billing",
    why: "a function response to an unknown caller falls through to the scan",
  },
  {
    id: "R29",
    events: "U, root:FR(billing), billing:text, U, billing:FR(root), root:text, U",
    expected: "root",
    why: "a transfer back to the root gives the root the turn",
  },
  {
    id: "R30",
    events: "U, root:text, U, billing:text, REWIND(e2), U",
    expected: "root",
    why: "a rewound invocation and its marker are ignored (PYX)",
  },
  {
    id: "R31",
    events: "U, root:FR(billing), billing:STATE",
    expected: "billing",
    why: "a state event written before the target failed counts as its reply",
  },
];

const MORE: Row[] = [
  {
    id: "FR1",
    events: "U, remote:MOCKFC(f1), billing:CALL(f2), U:FR(f2+f1)",
    expected: "billing",
    why: "the function-response rule matches the first response only",
  },
  {
    id: "FR2",
    events: "U, billing:text, U:FR(nowhere)",
    expected: "billing",
    why: "a function response with no matching call falls through to the scan",
  },
  {
    id: "FR3",
    events: "U, billing:FC(refunds), billing:FR(refunds)",
    expected: "billing",
    why: "the function-response rule applies to an agent's response at the tail too",
  },
  {
    id: "FR4",
    events: "U, root:CALL(f1), U, billing:text, U:FR(f1)",
    expected: "root",
    why: "the function-response rule returns the root when the root made the call",
  },
  {
    id: "FR5",
    events: "U, remote:MOCKFC(f1), REWIND(e1), U:FR(f1)",
    expected: "root",
    why: "a call inside a rewound range is not matched",
  },
  {
    id: "FR6",
    events: "U, remote:MOCKFC(f1), U:FR(f1), U, billing:text, REWIND(e3)",
    expected: "remote",
    why: "the function-response rule looks at the newest event that survives rewinds",
  },
  {
    id: "ERR1",
    events: "U, billing:text, root:ERRCODE",
    expected: "billing",
    why: "an error with only errorCode is skipped",
  },
  {
    id: "ERR2",
    events: "U, root:FR(billing), billing:ERR, billing:ERRMSG, U",
    expected: "billing",
    why: "several content-less errors in a row are all skipped",
  },
  {
    id: "ERR3",
    events: "U, billing:text, U, solo:ERR, U",
    expected: "billing",
    why: "a content-less error from another sticky agent does not take the turn",
  },
  {
    id: "TR1",
    events: "U, root:FR(billing), faq:text",
    expected: "billing",
    why: "the transfer check comes before the root shortcut",
  },
  {
    id: "TR2",
    events: "U, billing:text, U, faq:FR(root), root:ERR",
    expected: "billing",
    why: "a transfer to a parent the author may not reach does not redirect",
  },
  {
    id: "TR3",
    events: "U, root:FR(billing), U",
    expected: "root",
    why: "in the R14 tree billing is not sticky, so the transfer does not redirect",
    tree: R14_TREE,
  },
  {
    id: "TR4",
    events: "U, billing:FR(refunds), refunds:text, refunds:FR(billing), U",
    expected: "billing",
    why: "the newest transfer wins",
  },
  {
    id: "TR5",
    events: "U, root:FR(refunds), U",
    expected: "root",
    why: "a transfer to a sticky grandchild does not redirect: it is not among the author's targets",
  },
  {
    id: "RW1",
    events: "U, billing:text, REWIND(e9), U",
    expected: "billing",
    why: "a marker for an unknown invocation drops only itself",
  },
  {
    id: "RW2",
    events: "U, root:text, U, billing:text, U, refunds:text, REWIND(e2), U",
    expected: "root",
    why: "a rewind drops every invocation from the rewound one to the marker",
  },
  {
    id: "RW3",
    events: "U, root:text, U, billing:text, REWIND(e2), U, refunds:text, REWIND(e4), U",
    expected: "root",
    why: "successive rewinds each drop their range",
  },
  {
    id: "RW4",
    events: "U, billing:text, U, root:text, REWIND(e2), U, refunds:text, REWIND(e2)",
    expected: "billing",
    why: "a marker inside a rewound range is dropped with it",
  },
];

describe("findAgentToRun", () => {
  it.each(CONFORMANCE)("$id: $why", ({ events, expected, tree }) => {
    expect(route(history(events), tree)).toBe(expected);
  });

  it.each(MORE)("$id: $why", ({ events, expected, tree }) => {
    expect(route(history(events), tree)).toBe(expected);
  });

  it("returns the tree's own agent object", () => {
    const billing = T1.subAgents[0];
    expect(findAgentToRun(history("U, billing:text, U"), T1)).toBe(billing);
  });

  it("logs an event from an unknown agent and goes on (R09)", () => {
    const log = vi.fn<(message: string) => void>();
    expect(findAgentToRun(history("U, billing:text, ghost:text, U"), T1, log).name).toBe("billing");
    expect(log).toHaveBeenCalledOnce();
    expect(log.mock.calls[0]?.[0]).toMatch(/Event from an unknown agent: ghost/);
  });

  it("works without a log function", () => {
    expect(findAgentToRun(history("U, ghost:text, U"), T1).name).toBe("root");
  });

  it("skips an event with an empty author", () => {
    const [first, billing, anonymous] = history("U, billing:text, root:text");
    if (!first || !billing || !anonymous) throw new Error("fixture");
    expect(route([first, billing, { ...anonymous, author: "" }])).toBe("billing");
  });

  it("skips a checkpoint even when it also carries a transfer", () => {
    const events = history("U, billing:text, root:FR(solo)");
    const last = events.at(-1);
    if (!last) throw new Error("fixture");
    events[events.length - 1] = { ...last, actions: { ...last.actions, endOfAgent: true } };
    expect(route(events)).toBe("billing");
  });
});
