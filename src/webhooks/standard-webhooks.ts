import type { Verifier } from "../core/webhook.js";
import { concatBytes, fromBase64, hmacSha256, hmacSha256Matches, toBase64, utf8 } from "./signing.js";
import {
  accepted,
  DEFAULT_TOLERANCE_SECONDS,
  refused,
  staleness,
  type ToleranceOptions,
} from "./verifier.js";

/**
 * The Standard Webhooks scheme (standardwebhooks.com): `webhook-id`, `webhook-timestamp` and
 * `webhook-signature: v1,<base64> [v1,<base64> …]`, the HMAC-SHA256 of `<id>.<timestamp>.<body>` under the
 * base64 secret after its `whsec_` prefix; 5 minutes of tolerance. Checked with Web Crypto's constant-time
 * HMAC verify rather than the `standardwebhooks` package's `verify`, which reads `Date.now()` itself where
 * the tolerance must use the run services' clock; results Baton sends (`onResult`) are signed the same way
 * (`signStandardWebhook`), and the tests check both directions against the package. `webhook-id` is the delivery id.
 */
export function standardWebhooks<P = Record<string, unknown>>(options: ToleranceOptions): Verifier<P> {
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  return {
    scheme: "standard-webhooks",
    signsIdOrTime: true,
    secretName: options.secretName,
    async verify({ body, headers, secret, nowMs }) {
      const id = headers.get("webhook-id");
      const timestamp = headers.get("webhook-timestamp");
      const signatures = headers.get("webhook-signature");
      if (!id || !signatures) return refused("missing webhook-id or webhook-signature");
      const stale = staleness(timestamp, nowMs, tolerance);
      if (stale) return refused(`webhook-timestamp: ${stale}`);
      const key = standardWebhooksKey(secret);
      if (!key) return refused("the secret is not a base64 Standard Webhooks secret");
      const signedContent = concatBytes(utf8(`${id}.${timestamp}.`), body);
      for (const entry of signatures.split(" ")) {
        const [version, value] = entry.split(",");
        const signature = version === "v1" && value ? fromBase64(value) : null;
        if (signature && (await hmacSha256Matches(key, signedContent, signature))) return accepted;
      }
      return refused("no v1 signature matches");
    },
    deliveryId: (headers) => headers.get("webhook-id") ?? undefined,
  };
}

/** The key bytes of a `whsec_<base64>` secret (the prefix is optional), or `null` when malformed. */
export function standardWebhooksKey(secret: string): Uint8Array<ArrayBuffer> | null {
  const key = fromBase64(secret.startsWith("whsec_") ? secret.slice("whsec_".length) : secret);
  return key && key.length > 0 ? key : null;
}

/**
 * Signs an outgoing message the Standard Webhooks way: the three headers a receiver checks, or `null` when
 * `secret` is not a `whsec_<base64>` key. `id` stays the same across retries of one message, so receivers
 * can dedupe.
 */
export async function signStandardWebhook(
  secret: string,
  id: string,
  nowMs: number,
  body: string,
): Promise<Record<"webhook-id" | "webhook-timestamp" | "webhook-signature", string> | null> {
  const key = standardWebhooksKey(secret);
  if (!key) return null;
  const timestamp = String(Math.floor(nowMs / 1000));
  const signature = await hmacSha256(key, utf8(`${id}.${timestamp}.${body}`));
  return {
    "webhook-id": id,
    "webhook-timestamp": timestamp,
    "webhook-signature": `v1,${toBase64(signature)}`,
  };
}
