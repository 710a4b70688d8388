import type {
  HeaderReader,
  OnResult,
  RetryDelays,
  TurnRequest,
  Verifier,
  WebhookDefinition,
} from "../core/webhook.js";

/** What `toTurn` gets: the verified, parsed payload and the request's headers. */
export interface WebhookInput<P> {
  payload: P;
  headers: HeaderReader;
}

export interface WebhookConfig<P> {
  /** The hook's name in its URL: `POST /webhooks/:app/:name`. */
  name: string;
  /** The signature scheme, e.g. `verifiers.github({ secretName: "GITHUB_WEBHOOK_SECRET" })`. */
  verify: Verifier<P>;
  /** The turn to run for a delivery, or `null` to ignore it (answered 204, nothing stored). */
  toTurn: (input: WebhookInput<P>) => TurnRequest | null | Promise<TurnRequest | null>;
  /** Delivers the final response to a URL, signed with Standard Webhooks, retried. */
  onResult?: OnResult;
  /** The delivery id, when the provider's own (or a hash of the body) is not the right one. */
  deliveryId?: (input: WebhookInput<P>) => string | undefined;
  /** Retry delays for failing or busy turns. */
  retry?: Partial<RetryDelays>;
}

const HOOK_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;

export const DEFAULT_RETRY: RetryDelays = { baseDelaySeconds: 5, maxDelaySeconds: 300, busyDelaySeconds: 10 };

/**
 * Declares a webhook that starts turns: verified on the raw body, deduplicated by delivery id, queued,
 * run once. Give it to `defineApp({ webhooks: [...] })`.
 * @example
 * webhook({ name: "github", verify: verifiers.github({ secretName: "GITHUB_WEBHOOK_SECRET" }),
 *   toTurn: ({ payload }) => ({ userId: "github", sessionId: `issue-${payload.issue.number}`,
 *     newMessage: userText(payload.comment.body) }) })
 */
export function webhook<P>(config: WebhookConfig<P>): WebhookDefinition {
  if (!HOOK_NAME.test(config.name))
    throw new TypeError(`Webhook name "${config.name}" must be letters, digits, "_", "-" or ".".`);
  if (config.onResult) new URL(config.onResult.url); // a malformed URL fails at definition, not at delivery
  const { toTurn, deliveryId } = config;
  // SAFETY: `P` is the verifier's description of its provider's payloads (see `Verifier`); the route only
  // calls these with payloads that passed that verifier, and a `toTurn` that trips over a field is a 422.
  const typed = (input: { payload: unknown; headers: HeaderReader }) => input as WebhookInput<P>;
  return {
    name: config.name,
    verify: config.verify,
    toTurn: (input) => toTurn(typed(input)),
    ...(config.onResult ? { onResult: config.onResult } : {}),
    ...(deliveryId ? { deliveryId: (input) => deliveryId(typed(input)) } : {}),
    retry: { ...DEFAULT_RETRY, ...config.retry },
  };
}
