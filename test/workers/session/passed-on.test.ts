import { describe, expect, it } from "vitest";
import { passedOnCases } from "../../support/passed-on-cases.js";

describe("passedOn in workerd, through its IdentityTransformStream", () => {
  it("has the native stream to pass the bytes through", () => {
    expect(typeof IdentityTransformStream).toBe("function");
  });
  passedOnCases();
});
