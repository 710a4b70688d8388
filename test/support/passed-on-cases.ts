import { expect, it } from "vitest";
import { LineStream, passedOn } from "../../src/storage/feed-lines.js";

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

const brokenFrame = (error: unknown) => `data: ${JSON.stringify({ error: String(error) })}\n\n`;

/**
 * `passedOn`'s cases, run in Node (`test/unit`, through a plain `TransformStream`) and in workerd
 * (`test/workers`, through its native `IdentityTransformStream`).
 */
export function passedOnCases(): void {
  it("passes the bytes on chunk for chunk, as they came", async () => {
    const chunks: string[] = [];
    const passed = passedOn(source(["data: 1\n\n", "data: 2\n\n"], "close"), brokenFrame);
    for await (const chunk of passed) chunks.push(decoder.decode(chunk));
    expect(chunks).toEqual(["data: 1\n\n", "data: 2\n\n"]);
  });

  it("ends a stream that breaks with the bytes of its error", async () => {
    const text = await textOf(passedOn(source(["data: 1\n\n"], new Error("object gone")), brokenFrame));
    expect(text).toBe('data: 1\n\ndata: {"error":"Error: object gone"}\n\n');
  });

  it("a reader that leaves cancels the source, whose writer hears of it, and nothing more is written", async () => {
    let closed = 0;
    let heard = () => undefined as void;
    const writerHeard = new Promise<void>((resolve) => {
      heard = resolve;
    });
    const lines = new LineStream<string>(
      () => {
        closed++;
        heard();
      },
      (line) => `data: ${line}\n\n`,
    );
    const reader = passedOn(lines.readable, brokenFrame).getReader();
    lines.send("first");
    expect(decoder.decode((await reader.read()).value)).toBe("data: first\n\n");
    await reader.cancel();
    // The pipe may learn that its reader left only when it next hands a chunk on.
    lines.send("second");
    await writerHeard;
    expect(closed).toBe(1);
    lines.send("after");
    lines.close();
    expect(closed).toBe(1);
  });
}
