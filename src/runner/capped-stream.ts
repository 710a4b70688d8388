/**
 * Reads `stream` whole into one array, up to `maxBytes`. Past that, `overflow` decides what becomes of the
 * rest (by default the stream is cancelled) and the result is `null`. Every bounded read of a body Baton
 * does not trust goes through here: request bodies, peers' responses, inbound mail.
 */
export async function readStreamCapped(
  stream: ReadableStream<Uint8Array>,
  maxBytes: number,
  overflow: (reader: ReadableStreamDefaultReader<Uint8Array>, readBytes: number) => Promise<void> = (
    reader,
  ) => reader.cancel(),
): Promise<Uint8Array<ArrayBuffer> | null> {
  const reader = stream.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await overflow(reader, size);
      return null;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
