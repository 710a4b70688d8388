import { type TaskFeedEntry, TaskFeedEntrySchema } from "../core/task-store.js";

const encoder = new TextEncoder();

/**
 * Reads an NDJSON byte stream of feed entries (what `SessionObject.followTask` returns), checked by zod.
 * A reader that stops early asks the writer to end the stream (`stop`) and reads it out: cancelling a
 * Durable Object's stream from this side makes workerd report the cut as an uncaught error.
 */
export function feedLines(
  stream: ReadableStream<Uint8Array>,
  stop?: () => Promise<void>,
): AsyncGenerator<TaskFeedEntry> {
  return jsonLines(stream, (value) => TaskFeedEntrySchema.parse(value), stop);
}

/** An NDJSON byte stream from a Durable Object, each line checked by `parse`; ends early as `feedLines`. */
export async function* jsonLines<T>(
  stream: ReadableStream<Uint8Array>,
  parse: (value: unknown) => T,
  stop?: () => Promise<void>,
): AsyncGenerator<T> {
  // Decoded here rather than through a `TextDecoderStream`: one stream per turn, not two piped.
  const reader = stream.getReader();
  const decoder = new TextDecoder();
  let buffered = "";
  let ended = false;
  try {
    while (true) {
      const { done, value } = await reader.read();
      ended = done;
      if (done) return;
      buffered += decoder.decode(value, { stream: true });
      let newline = buffered.indexOf("\n");
      while (newline >= 0) {
        const text = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        if (text.trim() !== "") yield parse(JSON.parse(text));
        newline = buffered.indexOf("\n");
      }
    }
  } finally {
    if (!ended) await endEarly(reader, stop);
  }
}

/**
 * A byte stream from a Durable Object passed on chunk for chunk, nothing read out of it (a turn the object
 * frames itself). A reader that leaves before its end ends it as `jsonLines` does (`stop`, then drained); a
 * stream that breaks ends with the bytes of `broken(error)`.
 */
export function passedOn(
  stream: ReadableStream<Uint8Array>,
  stop: () => Promise<void>,
  broken: (error: unknown) => string,
): ReadableStream<Uint8Array> {
  const reader = stream.getReader();
  let ended = false;
  let left = false;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      let chunk: Uint8Array | undefined;
      try {
        const next = await reader.read();
        ended = next.done;
        chunk = next.value;
      } catch (error) {
        ended = true;
        chunk = encoder.encode(broken(error));
      }
      if (left) return;
      if (chunk !== undefined) controller.enqueue(chunk);
      if (ended) controller.close();
    },
    async cancel() {
      left = true;
      if (!ended) await endEarly(reader, stop);
    },
  });
}

/** Ends a stream the reader leaves before its end: by the writer when it can (then drained), else cancelled. */
async function endEarly(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  stop: (() => Promise<void>) | undefined,
) {
  const stopped = stop
    ? await stop().then(
        () => true,
        () => false,
      )
    : false;
  if (!stopped) return void (await reader.cancel().catch(() => undefined));
  const drain = async (): Promise<void> => {
    if (!(await reader.read()).done) return drain();
  };
  await drain().catch(() => undefined);
}

/** One NDJSON line of `value`. */
const ndjson = (value: unknown): string => `${JSON.stringify(value)}\n`;

/**
 * An NDJSON byte stream that a writer fills while its reader is there (what `jsonLines` reads); once the
 * reader left, lines are dropped. `onClose` runs once, when the writer closes it or the reader cancels.
 * `render` writes each line's text (NDJSON by default; a turn streamed for `/run_sse`, its SSE frames).
 */
export class LineStream<T> {
  readonly readable: ReadableStream<Uint8Array>;
  #controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  #open = true;

  constructor(
    private readonly onClose: () => void,
    private readonly render: (line: T) => string = ndjson,
  ) {
    this.readable = new ReadableStream<Uint8Array>({
      start: (controller) => {
        this.#controller = controller;
      },
      cancel: () => this.#closed(),
    });
  }

  send(line: T): void {
    if (!this.#open) return;
    try {
      this.#controller?.enqueue(encoder.encode(this.render(line)));
    } catch {
      this.#closed();
    }
  }

  close(): void {
    if (!this.#open) return;
    this.#closed();
    try {
      this.#controller?.close();
    } catch {
      // Already closed or errored by its reader.
    }
  }

  #closed(): void {
    this.#open = false;
    this.onClose();
  }
}
