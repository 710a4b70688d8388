/**
 * The little an artifact store needs from a blob store: create-once writes, reads, prefix listings with
 * sizes and metadata, deletes. R2 has all of it (`r2Blobs`); so does a `Map` (`memoryBlobs`).
 */
export interface ArtifactBlobs {
  /** The scheme of the canonical URIs of what it keeps (`r2`, `memory`). */
  readonly scheme: string;
  /** Stores `body` under `key` unless something is there already; `false` when it was (another save won). */
  create(key: string, body: Uint8Array, meta: Readonly<Record<string, string>>): Promise<boolean>;
  get(key: string): Promise<StoredBlob | undefined>;
  /** Every blob whose key starts with `prefix`, in key order. */
  list(prefix: string): Promise<ListedBlob[]>;
  delete(keys: readonly string[]): Promise<void>;
}

export interface StoredBlob {
  body: Uint8Array;
  meta: Record<string, string>;
}

export interface ListedBlob {
  key: string;
  size: number;
  meta: Record<string, string>;
}

/** The in-memory blob store (Node, tests): what `InMemoryArtifactService` keeps its versions in. */
export function memoryBlobs(): ArtifactBlobs {
  const blobs = new Map<string, StoredBlob>();
  return {
    scheme: "memory",
    async create(key, body, meta) {
      if (blobs.has(key)) return false;
      blobs.set(key, { body: body.slice(), meta: { ...meta } });
      return true;
    },
    async get(key) {
      const blob = blobs.get(key);
      return blob && { body: blob.body.slice(), meta: { ...blob.meta } };
    },
    async list(prefix) {
      return [...blobs]
        .filter(([key]) => key.startsWith(prefix))
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([key, blob]) => ({ key, size: blob.body.byteLength, meta: { ...blob.meta } }));
    },
    async delete(keys) {
      for (const key of keys) blobs.delete(key);
    },
  };
}
