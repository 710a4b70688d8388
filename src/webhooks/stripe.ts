import type { Verifier } from "../core/webhook.js";
import { concatBytes, fromHex, hmacSha256Matches, utf8 } from "./signing.js";
import {
  accepted,
  DEFAULT_TOLERANCE_SECONDS,
  refused,
  staleness,
  stringField,
  type ToleranceOptions,
} from "./verifier.js";

/** A Stripe event object. */
export interface StripeEventPayload {
  id: string;
  type: string;
  created: number;
  livemode: boolean;
  data: { object: Record<string, unknown> };
  [key: string]: unknown;
}

/** `t=…,v1=…,v1=…,v0=…` into the timestamp and the `v1` signatures (several during secret rolls). */
function parseHeader(header: string): { t: string | undefined; v1: string[] } {
  const pairs = header.split(",").map((item) => {
    const at = item.indexOf("=");
    return [item.slice(0, at).trim(), item.slice(at + 1).trim()] as const;
  });
  return { t: pairs.find(([k]) => k === "t")?.[1], v1: pairs.filter(([k]) => k === "v1").map(([, v]) => v) };
}

/**
 * Stripe's scheme ("Check the webhook signatures"): `Stripe-Signature: t=<unix>,v1=<hex>[,v1=…]`, the
 * HMAC-SHA256 of `<t>.<raw body>` under the endpoint secret (`whsec_…`, used as is); any `v1` may match;
 * 5 minutes of tolerance. The event's `id` is the delivery id (Stripe retries resend the same event).
 */
export function stripe(options: ToleranceOptions): Verifier<StripeEventPayload> {
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  return {
    scheme: "stripe",
    signsIdOrTime: true,
    secretName: options.secretName,
    async verify({ body, headers, secret, nowMs }) {
      const header = headers.get("stripe-signature");
      if (!header) return refused("missing Stripe-Signature");
      const { t, v1 } = parseHeader(header);
      const stale = staleness(t, nowMs, tolerance);
      if (stale) return refused(`Stripe-Signature: ${stale}`);
      const message = concatBytes(utf8(`${t}.`), body);
      for (const hex of v1) {
        const signature = fromHex(hex);
        if (signature && (await hmacSha256Matches(utf8(secret), message, signature))) return accepted;
      }
      return refused(v1.length === 0 ? "no v1 signature in Stripe-Signature" : "signature does not match");
    },
    deliveryId: (_headers, payload) => stringField(payload, "id"),
  };
}
