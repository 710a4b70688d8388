import { type TaskFeedEntry, TaskFeedEntrySchema } from "../core/task-store.js";

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

const encoder = new TextEncoder();

/**
 * An NDJSON byte stream that a writer fills while its reader is there (what `jsonLines` reads); once the
 * reader left, lines are dropped. `onClose` runs once, when the writer closes it or the reader cancels.
 */
export class LineStream<T> {
  readonly readable: ReadableStream<Uint8Array>;
  #controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  #open = true;

  constructor(private readonly onClose: () => void) {
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
      this.#controller?.enqueue(encoder.encode(`${JSON.stringify(line)}\n`));
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
