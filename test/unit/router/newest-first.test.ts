import { describe, expect, it } from "vitest";
import { newestFirst, withoutRewound } from "../../../src/router/newest-first.js";
import { history } from "../fixtures/history.js";

const ids = (notation: string) => [...newestFirst(history(notation))].map((event) => event.id);

describe("newestFirst", () => {
  it("yields every event newest first when nothing is rewound", () => {
    expect(ids("U, root:text, U")).toEqual(["ev-3", "ev-2", "ev-1"]);
  });

  it("yields nothing for an empty session", () => {
    expect(ids("")).toEqual([]);
  });

  it.each([
    [
      "drops the rewound invocation and the marker",
      "U, root:text, U, billing:text, REWIND(e2), U",
      ["ev-6", "ev-2", "ev-1"],
    ],
    [
      "drops everything from the rewound invocation to the marker",
      "U, U, billing:text, U, REWIND(e2)",
      ["ev-1"],
    ],
    ["rewinds the whole session", "U, root:text, REWIND(e1)", []],
    ["drops only the marker when the invocation is unknown", "U, root:text, REWIND(e7)", ["ev-2", "ev-1"]],
    [
      "drops a marker that lies inside a rewound range",
      "U, U, root:text, REWIND(e2), U, REWIND(e2)",
      ["ev-1"],
    ],
    ["treats an empty rewind id as no marker", "U, REWIND()", ["ev-2", "ev-1"]],
  ])("%s", (_what, notation, expected) => {
    expect(ids(notation)).toEqual(expected);
  });
});

describe("withoutRewound", () => {
  it("returns the session itself, uncopied, when nothing is rewound", () => {
    const events = history("U, root:text, U");
    expect(withoutRewound(events)).toBe(events);
  });

  it("is what newestFirst walks, oldest first, when something is rewound", () => {
    const events = history("U, root:text, U, billing:text, REWIND(e2), U");
    expect(withoutRewound(events).map((e) => e.id)).toEqual(["ev-1", "ev-2", "ev-6"]);
  });
});
