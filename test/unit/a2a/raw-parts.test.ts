import { describe, expect, it } from "vitest";
import { base64ToBytes, bytesToBase64 } from "../../../src/a2a/server/base64.js";
import { fromA2aPart, toA2aPart } from "../../../src/a2a/server/parts.js";

describe("A2A raw parts without Node's Buffer", () => {
  it("carries inline data to a raw part and back unchanged", () => {
    const data = bytesToBase64(new Uint8Array([0, 1, 2, 250, 251, 252, 253, 254, 255]));
    const a2a = toA2aPart({ inlineData: { mimeType: "image/png", data } });
    expect(a2a?.content).toEqual({
      $case: "raw",
      value: new Uint8Array([0, 1, 2, 250, 251, 252, 253, 254, 255]),
    });
    expect(a2a?.mediaType).toBe("image/png");
    expect(a2a && fromA2aPart(a2a)).toEqual({ inlineData: { mimeType: "image/png", data } });
  });

  it("encodes a 2 MiB image without overflowing the stack, as Node's Buffer does", () => {
    const bytes = new Uint8Array(2 * 1024 * 1024).map((_, i) => (i * 7) % 256);
    const text = bytesToBase64(bytes);
    expect(text === Buffer.from(bytes).toString("base64")).toBe(true);
    expect(Buffer.from(base64ToBytes(text)).equals(bytes)).toBe(true);
  });

  it("reads base64url, whitespace and missing padding as Buffer.from(text, 'base64') does", () => {
    const bytes = new Uint8Array([251, 255, 190, 0, 63]);
    const url = Buffer.from(bytes).toString("base64url");
    expect(url).not.toContain("=");
    for (const text of [url, ` ${url.slice(0, 3)}\n${url.slice(3)} `, Buffer.from(bytes).toString("base64")])
      expect(base64ToBytes(text)).toEqual(new Uint8Array(Buffer.from(text, "base64")));
  });
});
