import { BatonError } from "../core/errors.js";
import type { Clock } from "../core/ids.js";
import { readGuardedJson } from "../core/json-guard.js";
import { ID_LIMITS, idProblem } from "../core/limits.js";
import { reservedUserId } from "../core/reserved-users.js";
import { assertSafeShape, assertSafeState } from "../core/safe-shape.js";
import {
  type HeaderReader,
  type TurnRequest,
  TurnRequestSchema,
  type WebhookDefinition,
} from "../core/webhook.js";
import { type EnqueueDeps, type EnqueueOutcome, enqueueTurn } from "./enqueue-turn.js";
import { sha256Hex } from "./signing.js";

/** What accepting needs from the Worker: the turn objects, the queue, the secrets, the clock and ids. */
export interface AcceptDeps extends EnqueueDeps {
  /** A Worker secret by name, `undefined` when unset. */
  secret(name: string): string | undefined;
  clock: Clock;
}

export interface Delivery {
  appName: string;
  hook: WebhookDefinition;
  body: Uint8Array<ArrayBuffer>;
  headers: HeaderReader;
}

/** `accepted`: 202 and enqueued. `duplicate`: 200, same turn, nothing enqueued. `ignored`: 204. */
export type AcceptOutcome = EnqueueOutcome | { kind: "ignored" } | { kind: "challenge"; challenge: string };

/**
 * Accepts one delivery fast: verify the raw body, parse, map to a turn, claim the delivery id in its turn
 * object, enqueue. Refusals are `BatonError`s: 401 (signature, timestamp), 400 (JSON, `toTurn`), and
 * nothing is stored or enqueued for any of them.
 */
export async function acceptDelivery(delivery: Delivery, deps: AcceptDeps): Promise<AcceptOutcome> {
  const { hook, body, headers } = delivery;
  const secret = deps.secret(hook.verify.secretName);
  if (!secret)
    throw new BatonError(
      "internal",
      `Webhook "${hook.name}" needs the secret ${hook.verify.secretName}: set it with \`wrangler secret put ${hook.verify.secretName}\` (or in .dev.vars locally).`,
    );
  const verdict = await hook.verify.verify({ body, headers, secret, nowMs: deps.clock.now() });
  if (!verdict.ok) throw new BatonError("unauthorized", `Webhook signature refused: ${verdict.reason}.`);
  // The payload reaches `toTurn` (the app's code) only through the one body guard (core/json-guard.ts).
  const payload = readGuardedJson(new TextDecoder().decode(body), { where: "webhook body" });
  const challenge = handshake(hook, headers, payload);
  if (challenge) return challenge;
  const turn = await mapToTurn(hook, payload, headers);
  if (!turn) return { kind: "ignored" };
  const bodySha256 = await sha256Hex(body);
  const deliveryId =
    hook.deliveryId?.({ payload, headers }) ??
    hook.verify.deliveryId(headers, payload) ??
    `sha256:${bodySha256}`;
  const badId = idProblem(ID_LIMITS.deliveryId, deliveryId);
  if (badId !== null) throw new BatonError("invalid_request", `Refused the delivery id: ${badId}.`);
  // A scheme that signs no id or time (GitHub, bearer) lets a captured body be replayed under a new delivery
  // id: the body's hash is remembered as well, for as long as delivery ids are (RETAIN_MS).
  return enqueueTurn(
    {
      appName: delivery.appName,
      origin: "webhook",
      source: hook.name,
      deliveryId,
      turn,
      ...(hook.verify.signsIdOrTime ? {} : { bodySha256 }),
    },
    deps,
  );
}

/** Provider handshakes answered after verification: GitHub's `ping`, Slack's `url_verification`. */
function handshake(hook: WebhookDefinition, headers: HeaderReader, payload: unknown): AcceptOutcome | null {
  if (hook.verify.scheme === "github" && headers.get("x-github-event") === "ping") return { kind: "ignored" };
  if (hook.verify.scheme !== "slack" || typeof payload !== "object" || payload === null) return null;
  const type: unknown = Reflect.get(payload, "type");
  const challenge: unknown = Reflect.get(payload, "challenge");
  return type === "url_verification" && typeof challenge === "string"
    ? { kind: "challenge", challenge }
    : null;
}

async function mapToTurn(
  hook: WebhookDefinition,
  payload: unknown,
  headers: HeaderReader,
): Promise<TurnRequest | null> {
  let turn: TurnRequest | null;
  try {
    turn = await hook.toTurn({ payload, headers });
  } catch (error) {
    const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    throw new BatonError(
      "invalid_request",
      `Webhook "${hook.name}" could not map this payload to a turn (${reason}).`,
    );
  }
  if (turn === null) return null;
  const parsed = TurnRequestSchema.safeParse(turn);
  const fields = parsed.error?.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
  // Ids out of their limits come from the payload: the sender's fault (400); anything else is the hook's.
  if (parsed.error?.issues.every((i) => ID_FIELDS.has(String(i.path[0])) && i.code === "custom"))
    throw new BatonError(
      "invalid_request",
      `Webhook "${hook.name}" mapped this payload to refused ids: ${fields}`,
    );
  if (!parsed.success)
    throw new BatonError(
      "internal",
      `Webhook "${hook.name}" returned an invalid turn from toTurn: ${fields}`,
    );
  // The turn carries the payload's words and keys: hostile ones are the sender's fault (400).
  assertSafeShape(parsed.data, "the turn");
  if (parsed.data.stateDelta) assertSafeState(parsed.data.stateDelta, "the turn's stateDelta");
  // Its user lives in Baton's reserved namespace, out of every end user's reach (decision 029).
  const userId = reservedUserId("webhook", parsed.data.userId);
  const badUser = idProblem(ID_LIMITS.userId, userId);
  if (badUser !== null)
    throw new BatonError(
      "invalid_request",
      `Webhook "${hook.name}" mapped this payload to refused ids: userId: ${badUser}`,
    );
  return { ...parsed.data, userId };
}

const ID_FIELDS: ReadonlySet<string> = new Set(["userId", "sessionId"]);
