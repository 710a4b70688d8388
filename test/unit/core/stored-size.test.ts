import { describe, expect, it } from "vitest";
import { createEvent } from "../../../src/core/event.js";
import { frozenWithMemo } from "../../../src/core/memo.js";
import { keepStoredBytes, storedBytes as storedBytesOf } from "../../../src/core/stored-size.js";

const jsonBytes = (e: object) => new TextEncoder().encode(JSON.stringify(e)).byteLength;
const storedBytes = (e: Parameters<typeof storedBytesOf>[0]) => storedBytesOf(e, jsonBytes);

const env = { ids: { uuid: () => "00000000-0000-4000-8000-000000000001" }, clock: { now: () => 1_000 } };
const event = () =>
  createEvent(
    { invocationId: "e-1", author: "a", content: { role: "model", parts: [{ text: "café" }] } },
    env,
  );

describe("a stored event's size", () => {
  it("is its JSON's UTF-8 bytes when no store said, measured again for an event without a memo slot", () => {
    const plain = event();
    expect(storedBytes(plain)).toBe(new TextEncoder().encode(JSON.stringify(plain)).byteLength);
    expect(storedBytes(plain)).toBe(JSON.stringify(plain).length + 1); // "é" is two bytes
  });

  it("is what the store counted when it wrote the row, kept with the stored event", () => {
    const stored = frozenWithMemo(event());
    keepStoredBytes(stored, 4_242);
    expect(storedBytes(stored)).toBe(4_242);
  });

  it("is counted once for a stored event: the first answer is kept", () => {
    const stored = frozenWithMemo(event());
    const first = storedBytes(stored);
    keepStoredBytes(stored, 1);
    expect(storedBytes(stored)).toBe(first);
  });
});
