import type { Tool } from "@modelcontextprotocol/server";
import { describe, expect, it } from "vitest";
import { paramHeaderMismatch } from "../../../src/mcp/server/param-headers.js";

const tool: Tool = {
  name: "weather",
  inputSchema: {
    type: "object",
    properties: { region: { type: "string", "x-mcp-header": "Region" }, days: { type: "number" } },
  },
};
const check = (headers: Record<string, string>, args: Record<string, unknown>) =>
  paramHeaderMismatch(new Headers(headers), tool, args);

describe("the Mcp-Param-* header check (SEP-2243)", () => {
  it("accepts the argument's value, literal or as Base64, and no header without the argument", () => {
    expect(check({ "Mcp-Param-Region": "eu-west" }, { region: "eu-west" })).toBeUndefined();
    expect(check({ "Mcp-Param-Region": `=?base64?${btoa("Hello")}?=` }, { region: "Hello" })).toBeUndefined();
    expect(
      check({ "Mcp-Param-Region": "=?base64?SGVsbG8=" }, { region: "=?base64?SGVsbG8=" }),
    ).toBeUndefined();
    expect(check({}, { days: 3 })).toBeUndefined();
    expect(paramHeaderMismatch(new Headers(), undefined, { region: "x" })).toBeUndefined();
  });

  it("refuses a missing, different, badly encoded or unmatched header", () => {
    expect(check({}, { region: "eu" })).toMatch(/required/);
    expect(check({ "Mcp-Param-Region": "us" }, { region: "eu" })).toMatch(/does not match/);
    expect(check({ "Mcp-Param-Region": "=?base64?SGVsbG8?=" }, { region: "Hello" })).toMatch(/Base64/);
    expect(check({ "Mcp-Param-Region": "=?base64?SGVs!!!bG8=?=" }, { region: "Hello" })).toMatch(/Base64/);
    expect(check({ "Mcp-Param-Region": "eu" }, {})).toMatch(/does not match/);
  });
});
