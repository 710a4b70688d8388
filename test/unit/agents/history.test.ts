import { describe, expect, it } from "vitest";
import { buildContents } from "../../../src/agents/history.js";
import { createEvent, type Event } from "../../../src/core/event.js";

let n = 0;
const env = { ids: { uuid: () => `id-${++n}` }, clock: { now: () => 1_767_225_600_000 } };
const said = (author: string, invocationId: string, text: string): Event =>
  createEvent(
    { invocationId, author, content: { role: author === "user" ? "user" : "model", parts: [{ text }] } },
    env,
  );

describe("buildContents", () => {
  it("leaves out a rewound invocation and its marker (R30, PYX)", () => {
    const events = [
      said("user", "e1", "first"),
      said("root", "e1", "answer one"),
      said("user", "e2", "second"),
      said("root", "e2", "answer two"),
      createEvent({ invocationId: "e3", author: "user", actions: { rewindBeforeInvocationId: "e2" } }, env),
    ];
    const contents = buildContents(events, "root", { includeContents: "default" });
    expect(contents.map((c) => c.parts?.[0]?.text)).toEqual(["first", "answer one"]);
  });

  it("passes its own and the user's events through and re-frames other agents' events", () => {
    const events = [
      said("user", "e1", "hi"),
      said("billing", "e1", "invoice sent"),
      said("root", "e1", "done"),
    ];
    const contents = buildContents(events, "root", { includeContents: "default" });
    expect(contents).toEqual([
      { role: "user", parts: [{ text: "hi" }] },
      { role: "user", parts: [{ text: "For context:" }, { text: "[billing] said: invoice sent" }] },
      { role: "model", parts: [{ text: "done" }] },
    ]);
  });
});
