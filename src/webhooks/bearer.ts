import type { Verifier } from "../core/webhook.js";
import { secretsEqual } from "./signing.js";
import { accepted, refused, type SecretOptions } from "./verifier.js";

/**
 * A shared secret sent as `Authorization: Bearer <secret>`, for senders that sign nothing. Compared in
 * constant time (both sides hashed first). An `Idempotency-Key` header, when sent, is the delivery id.
 */
export function bearer<P = Record<string, unknown>>(options: SecretOptions): Verifier<P> {
  return {
    scheme: "bearer",
    secretName: options.secretName,
    async verify({ headers, secret }) {
      const header = headers.get("authorization");
      const match = header ? /^Bearer\s+(.+)$/i.exec(header) : null;
      const token = match?.[1]?.trim();
      if (!token) return refused("missing bearer token");
      return (await secretsEqual(token, secret)) ? accepted : refused("bearer token does not match");
    },
    deliveryId: (headers) => headers.get("idempotency-key") ?? undefined,
  };
}
