import type { Verifier } from "../core/webhook.js";
import { fromHex, hmacSha256Matches, utf8 } from "./signing.js";
import { accepted, refused, type SecretOptions } from "./verifier.js";

/**
 * The fields of GitHub's issue and issue-comment deliveries a hook usually reads. Other events (push,
 * ping, …) lack `issue` and `comment`: check `headers.get("x-github-event")` before reading them.
 */
export interface GitHubWebhookPayload {
  action: string;
  issue: { number: number; title: string; body: string | null; user: { login: string } };
  comment: { id: number; body: string; user: { login: string } };
  repository: { full_name: string };
  sender: { login: string };
  [key: string]: unknown;
}

/**
 * GitHub's scheme ("Validating webhook deliveries"): `X-Hub-Signature-256: sha256=<hex>`, the HMAC-SHA256
 * of the raw body under the webhook secret. GitHub signs no timestamp; `X-GitHub-Delivery` dedupes redeliveries.
 */
export function github(options: SecretOptions): Verifier<GitHubWebhookPayload> {
  return {
    scheme: "github",
    secretName: options.secretName,
    async verify({ body, headers, secret }) {
      const header = headers.get("x-hub-signature-256");
      if (!header?.startsWith("sha256=")) return refused("missing X-Hub-Signature-256");
      const signature = fromHex(header.slice("sha256=".length));
      if (!signature) return refused("malformed X-Hub-Signature-256");
      const matches = await hmacSha256Matches(utf8(secret), body, signature);
      return matches ? accepted : refused("signature does not match");
    },
    deliveryId: (headers) => headers.get("x-github-delivery") ?? undefined,
  };
}
