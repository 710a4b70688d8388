import { type TaskFeedEntry, TaskFeedEntrySchema } from "../core/task-store.js";

/** Reads an NDJSON byte stream of feed entries (what `SessionObject.followTask` returns), checked by zod. */
export async function* feedLines(stream: ReadableStream<Uint8Array>): AsyncGenerator<TaskFeedEntry> {
  const reader = stream.pipeThrough(new TextDecoderStream()).getReader();
  let buffered = "";
  try {
    while (true) {
      const { done, value } = await reader.read();
      if (done) return;
      buffered += value;
      let newline = buffered.indexOf("\n");
      while (newline >= 0) {
        const text = buffered.slice(0, newline);
        buffered = buffered.slice(newline + 1);
        if (text.trim() !== "") yield TaskFeedEntrySchema.parse(JSON.parse(text));
        newline = buffered.indexOf("\n");
      }
    }
  } finally {
    await reader.cancel().catch(() => undefined);
  }
}
