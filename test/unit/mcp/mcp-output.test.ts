import { ProtocolError } from "@modelcontextprotocol/client";
import { describe, expect, it } from "vitest";
import { mcpFailure } from "../../../src/mcp/client/mcp-failure.js";
import { checkOutput, type McpToolInfo } from "../../../src/mcp/client/mcp-tool.js";

const tool: McpToolInfo = {
  name: "lookup_order",
  inputSchema: { type: "object" },
  outputSchema: { type: "object", properties: { status: { type: "string" } }, required: ["status"] },
};
const failureOf = (run: () => void) => {
  try {
    run();
    return undefined;
  } catch (error) {
    return error;
  }
};

describe("McpToolset checks a complete result against the tool's output schema", () => {
  it("passes a result that fits, an isError result and a tool without an output schema", () => {
    expect(
      failureOf(() => checkOutput(tool, { content: [], structuredContent: { status: "shipped" } })),
    ).toBe(undefined);
    expect(failureOf(() => checkOutput(tool, { content: [], isError: true }))).toBe(undefined);
    expect(
      failureOf(() => checkOutput({ name: "t", inputSchema: { type: "object" } }, { content: [] })),
    ).toBe(undefined);
  });

  it("refuses structured content that does not fit, or none, as MCP_PROTOCOL_ERROR", () => {
    const wrong = failureOf(() => checkOutput(tool, { content: [], structuredContent: { status: 5 } }));
    expect(wrong).toBeInstanceOf(ProtocolError);
    expect(mcpFailure(wrong, "http://x.test/mcp", "tools/call lookup_order").code).toBe("MCP_PROTOCOL_ERROR");
    const none = failureOf(() => checkOutput(tool, { content: [] }));
    expect(String((none as Error).message)).toContain("did not return structured content");
  });
});
