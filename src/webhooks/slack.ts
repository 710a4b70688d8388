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

/** An Events API delivery (`event_callback`); `url_verification` carries `challenge` instead of `event`. */
export interface SlackEventPayload {
  type: string;
  team_id: string;
  event_id: string;
  event: { type: string; text: string; user: string; channel: string; ts: string; thread_ts?: string };
  challenge?: string;
  [key: string]: unknown;
}

/**
 * Slack's v0 scheme ("Verifying requests from Slack"): `X-Slack-Signature: v0=<hex>`, the HMAC-SHA256 of
 * `v0:<X-Slack-Request-Timestamp>:<raw body>` under the signing secret; 5 minutes of tolerance. Slack's
 * retries repeat the `event_id`, which is the delivery id.
 */
export function slack(options: ToleranceOptions): Verifier<SlackEventPayload> {
  const tolerance = options.toleranceSeconds ?? DEFAULT_TOLERANCE_SECONDS;
  return {
    scheme: "slack",
    signsIdOrTime: true,
    secretName: options.secretName,
    async verify({ body, headers, secret, nowMs }) {
      const timestamp = headers.get("x-slack-request-timestamp");
      const stale = staleness(timestamp, nowMs, tolerance);
      if (stale) return refused(`X-Slack-Request-Timestamp: ${stale}`);
      const header = headers.get("x-slack-signature");
      if (!header?.startsWith("v0=")) return refused("missing X-Slack-Signature");
      const signature = fromHex(header.slice("v0=".length));
      if (!signature) return refused("malformed X-Slack-Signature");
      const message = concatBytes(utf8(`v0:${timestamp}:`), body);
      return (await hmacSha256Matches(utf8(secret), message, signature))
        ? accepted
        : refused("signature does not match");
    },
    deliveryId: (_headers, payload) => stringField(payload, "event_id"),
  };
}
