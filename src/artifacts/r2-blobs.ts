import type { ArtifactBlobs } from "./blobs.js";

/** The part of an R2 bucket binding Baton uses (wrangler `[[r2_buckets]]`). */
export type ArtifactBucket = Pick<R2Bucket, "put" | "get" | "list" | "delete">;

/**
 * `include` asks R2 to list each object's custom metadata. workers-types' default entry (2021-11-03) does
 * not declare it; workerd honours it from compatibility date 2022-08-04 (`r2_list_honor_include`).
 */
interface ListWithMetadata extends R2ListOptions {
  include: "customMetadata"[];
}

/** R2 deletes at most this many keys per call. */
const DELETE_BATCH = 1000;

/**
 * Artifact blobs in an R2 bucket. A version is written with `If-None-Match: *`, so two saves that picked
 * the same version number cannot both land: the loser gets `false` and takes the next number.
 */
export function r2Blobs(bucket: ArtifactBucket): ArtifactBlobs {
  return {
    scheme: "r2",
    async create(key, body, meta) {
      const stored = await bucket.put(key, body, {
        customMetadata: { ...meta },
        onlyIf: new Headers({ "If-None-Match": "*" }),
      });
      return stored !== null;
    },
    async get(key) {
      const object = await bucket.get(key);
      if (object === null) return undefined;
      return { body: new Uint8Array(await object.arrayBuffer()), meta: { ...object.customMetadata } };
    },
    async list(prefix) {
      const listed = [];
      let cursor: string | undefined;
      do {
        const options: ListWithMetadata = {
          prefix,
          include: ["customMetadata"],
          ...(cursor === undefined ? {} : { cursor }),
        };
        const page = await bucket.list(options);
        for (const object of page.objects)
          listed.push({ key: object.key, size: object.size, meta: { ...object.customMetadata } });
        cursor = page.truncated ? page.cursor : undefined;
      } while (cursor !== undefined);
      return listed;
    },
    async delete(keys) {
      for (let i = 0; i < keys.length; i += DELETE_BATCH)
        await bucket.delete(keys.slice(i, i + DELETE_BATCH));
    },
  };
}
