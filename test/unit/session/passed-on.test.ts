import { describe, expect, it } from "vitest";
import { LineStream, passedOn } from "../../../src/session/feed-lines.js";

const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** A byte stream of `chunks`, one a read, then `end` (a close, or an error). */
function source(chunks: string[], end: "close" | Error): ReadableStream<Uint8Array> {
  const left = [...chunks];
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = left.shift();
      if (chunk !== undefined) controller.enqueue(encoder.encode(chunk));
      else if (end === "close") controller.close();
      else controller.error(end);
    },
  });
}

async function textOf(stream: ReadableStream<Uint8Array>): Promise<string> {
  let text = "";
  for await (const chunk of stream) text += decoder.decode(chunk, { stream: true });
  return text;
}

const neverStopped = () => Promise.reject(new Error("not stopped"));
const brokenFrame = (error: unknown) => `data: ${JSON.stringify({ error: String(error) })}\n\n`;

describe("passedOn", () => {
  it("passes the bytes on chunk for chunk, as they came", async () => {
    const chunks: string[] = [];
    for await (const chunk of passedOn(
      source(["data: 1\n\n", "data: 2\n\n"], "close"),
      neverStopped,
      brokenFrame,
    ))
      chunks.push(decoder.decode(chunk));
    expect(chunks).toEqual(["data: 1\n\n", "data: 2\n\n"]);
  });

  it("ends a stream that breaks with the bytes of its error", async () => {
    const text = await textOf(
      passedOn(source(["data: 1\n\n"], new Error("object gone")), neverStopped, brokenFrame),
    );
    expect(text).toBe('data: 1\n\ndata: {"error":"Error: object gone"}\n\n');
  });

  it("a reader that leaves asks the writer to stop and reads out what was left, never cancelling the source", async () => {
    const lines = new LineStream<string>(
      () => undefined,
      (line) => `data: ${line}\n\n`,
    );
    let stopped = 0;
    const stop = async () => {
      stopped++;
      lines.close();
    };
    const passed = passedOn(lines.readable, stop, brokenFrame);
    lines.send("first");
    const reader = passed.getReader();
    expect(decoder.decode((await reader.read()).value)).toBe("data: first\n\n");
    lines.send("second");
    await reader.cancel();
    expect(stopped).toBe(1);
    lines.send("after");
  });

  it("cancels the source when the writer cannot be asked to stop", async () => {
    let canceled = false;
    const endless = new ReadableStream<Uint8Array>({
      pull: (controller) => controller.enqueue(encoder.encode("data: more\n\n")),
      cancel: () => {
        canceled = true;
      },
    });
    const reader = passedOn(endless, neverStopped, brokenFrame).getReader();
    await reader.read();
    await reader.cancel();
    expect(canceled).toBe(true);
  });
});
