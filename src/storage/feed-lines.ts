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
 * A byte stream from a Durable Object's answer passed on as it comes, nothing read out of it (a turn the
 * object frames itself). In workerd the bytes go through an `IdentityTransformStream`, which the runtime
 * pumps natively, with no JavaScript per chunk; elsewhere through a plain `TransformStream`. A stream that
 * breaks ends with the bytes of `broken(error)`; a reader that leaves cancels the source, which the object
 * sees as its reader gone (the turn runs on).
 */
export function passedOn(
  stream: ReadableStream<Uint8Array>,
  broken: (error: unknown) => string,
): ReadableStream<Uint8Array> {
  const { readable, writable } = identityStream();
  // A reader that leaves errors the writable, and the pipe cancels the source; one that breaks leaves the
  // writable open for its error frame.
  stream
    .pipeTo(writable, { preventAbort: true, preventClose: true })
    .then(
      () => writable.close(),
      async (error: unknown) => {
        const writer = writable.getWriter();
        await writer.write(encoder.encode(broken(error)));
        await writer.close();
      },
    )
    .catch(() => undefined); // The reader left: nothing is there to tell.
  return readable;
}

/** A byte stream's two ends that hand each chunk on as it is: workerd's native one where there is one. */
function identityStream(): TransformStream<Uint8Array, Uint8Array> {
  return typeof IdentityTransformStream === "function"
    ? new IdentityTransformStream()
    : new TransformStream<Uint8Array, Uint8Array>();
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
