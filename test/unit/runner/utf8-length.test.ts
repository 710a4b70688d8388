import { describe, expect, it } from "vitest";
import { utf8Length } from "../../../src/runner/utf8-length.js";

describe("utf8Length", () => {
  it("counts the UTF-8 bytes of ASCII, multi-byte and astral characters", () => {
    expect(utf8Length("")).toBe(0);
    expect(utf8Length("abc")).toBe(3);
    expect(utf8Length("é")).toBe(2);
    expect(utf8Length("€")).toBe(3);
    expect(utf8Length("😀")).toBe(4);
  });

  it("counts texts past its scratch buffer as exactly as short ones", () => {
    const long = "€".repeat(50_000);
    expect(utf8Length(long)).toBe(150_000);
    expect(utf8Length(`${long}a`)).toBe(new TextEncoder().encode(`${long}a`).byteLength);
  });
});
