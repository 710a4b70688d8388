import * as z from "zod";
import { ContentSchema } from "./content.js";
import { SessionIdSchema, UserIdSchema } from "./limits.js";

/** A request's headers, read case-insensitively (a `Headers` object is one). */
export interface HeaderReader {
  get(name: string): string | null;
}

/** What a request looks like to a signature scheme: the raw body bytes, the headers, the secret, the time. */
export interface VerifyInput {
  /** The body exactly as received; every scheme signs these bytes, never a re-serialisation. */
  body: Uint8Array<ArrayBuffer>;
  headers: HeaderReader;
  /** The Worker secret named by the verifier's `secretName`. */
  secret: string;
  /** Now, in ms since the epoch, from the run services' clock (tests fix it). */
  nowMs: number;
}

/** `ok`, or why the request was refused (said in the 401 body; never which byte differed). */
export type Verdict = { ok: true } | { ok: false; reason: string };

export type VerifierScheme = "github" | "slack" | "stripe" | "standard-webhooks" | "bearer";

/**
 * One provider's signature scheme. `P` describes the payloads `toTurn` sees from this provider; it is a
 * description, not a check, so `toTurn` guards what it reads (a throw there is a 422, nothing stored).
 */
export interface Verifier<P = unknown> {
  readonly scheme: VerifierScheme;
  /** The Worker secret (`wrangler secret put NAME`, or `.dev.vars` locally) holding the key. */
  readonly secretName: string;
  verify(input: VerifyInput): Promise<Verdict>;
  /**
   * Whether the signature covers a delivery id or a timestamp (Slack, Stripe, Standard Webhooks), so a
   * replayed body is refused or deduped by it. When not (GitHub, bearer), Baton also dedupes on the body's
   * SHA-256, for as long as it remembers delivery ids.
   */
  readonly signsIdOrTime?: boolean;
  /** The provider's own id for this delivery, when it sends one; a hash of the body stands in otherwise. */
  deliveryId(headers: HeaderReader, payload: unknown): string | undefined;
  /** Carries the payload type; never set. */
  readonly payloadType?: P;
}

/**
 * What `toTurn` returns: the turn to run for a delivery. The session is created when missing. `userId` is
 * stored in Baton's reserved namespace, as `baton:webhook:<userId>` (decision 029).
 */
export const TurnRequestSchema = z.object({
  userId: UserIdSchema,
  sessionId: SessionIdSchema,
  newMessage: ContentSchema,
  stateDelta: z.record(z.string(), z.unknown()).optional(),
});
export type TurnRequest = z.infer<typeof TurnRequestSchema>;

/** Where a finished turn's final response is delivered, signed with Standard Webhooks. */
export interface OnResult {
  url: string;
  /** The Worker secret holding the `whsec_…` signing key. */
  secretName: string;
}

/** How a failing turn is retried from the queue (each retry is a queue redelivery). */
export interface RetryDelays {
  /** The first retry's delay; each later one doubles it. Default 5 s. */
  baseDelaySeconds: number;
  /** The cap on a retry's delay. Default 300 s. */
  maxDelaySeconds: number;
  /**
   * How long a turn first waits for its session (an earlier turn of its line, or a turn holding it): doubling
   * per wait, same cap, jittered into the upper half. Waits never count as retries. Default 10 s.
   */
  busyDelaySeconds: number;
}

/** A hook as an app holds it: `webhook()` builds one; `toTurn` takes the payload the verifier described. */
export interface WebhookDefinition {
  readonly name: string;
  readonly verify: Verifier;
  toTurn(input: {
    payload: unknown;
    headers: HeaderReader;
  }): TurnRequest | null | Promise<TurnRequest | null>;
  readonly onResult?: OnResult;
  /** Overrides the provider's delivery id. */
  deliveryId?(input: { payload: unknown; headers: HeaderReader }): string | undefined;
  readonly retry: RetryDelays;
}
