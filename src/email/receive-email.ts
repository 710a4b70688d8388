import PostalMime from "postal-mime";
import { userText } from "../core/content.js";
import type { EmailRoute, InboundEmail } from "../core/email.js";
import { BatonError } from "../core/errors.js";
import { assertSafeShape, assertSafeState } from "../core/safe-shape.js";
import { type TurnRequest, TurnRequestSchema } from "../core/webhook.js";
import type { App } from "../runner/app.js";
import { readStreamCapped } from "../runner/capped-stream.js";
import { type EnqueueDeps, type EnqueueOutcome, enqueueTurn } from "../webhooks/enqueue-turn.js";
import { sha256Hex } from "../webhooks/signing.js";
import { checkSender } from "./sender-check.js";
import { addressesIn, threadSessionOf } from "./thread-of.js";

/** The parts of Cloudflare's `ForwardableEmailMessage` the handler uses. */
export interface IncomingEmail {
  readonly from: string;
  readonly to: string;
  readonly raw: ReadableStream<Uint8Array>;
  readonly rawSize: number;
  setReject(reason: string): void;
  forward(rcptTo: string, headers?: Headers): Promise<unknown>;
}

export interface ReceiveDeps extends EnqueueDeps {
  log(message: string): void;
}

/** What became of a message: queued (or a duplicate of one queued), dropped by `toTurn`, refused, quarantined. */
export type EmailOutcome =
  | EnqueueOutcome
  | { kind: "dropped" }
  | { kind: "rejected" | "quarantined"; reason: string };

/**
 * The Worker's `email` handler: finds the app whose route takes the recipient, refuses an oversized message
 * before reading it, parses it (postal-mime), checks every sender, works out its thread's session (one its
 * senders took part in, `thread-of.ts`), and queues its turn (deduplicated by `Message-ID`). Refused and
 * quarantined messages store nothing.
 */
export async function receiveEmail(
  apps: ReadonlyMap<string, App>,
  message: IncomingEmail,
  deps: ReceiveDeps,
): Promise<EmailOutcome> {
  const envelope = { from: message.from, to: message.to };
  const app = [...apps.values()].find((a) => a.emailRoute?.matches(envelope));
  const route = app?.emailRoute;
  if (!app || !route) return reject(message, `no mailbox here for ${message.to}`, deps);
  if (message.rawSize > route.maxBytes)
    return reject(
      message,
      `message of ${message.rawSize} bytes is over the limit of ${route.maxBytes}`,
      deps,
    );
  const raw = await readStreamCapped(message.raw, route.maxBytes);
  if (!raw) return reject(message, `message is over the limit of ${route.maxBytes} bytes`, deps);
  const parsed = await PostalMime.parse(raw);
  // Every From address (a message may name several, in one header or more): each must be verified, and each
  // must have taken part in a thread for the message to continue it.
  const froms = addressesIn(parsed, "from");
  const from = froms[0] ?? "";
  const authResults = parsed.headers.filter((h) => h.key === "authentication-results").map((h) => h.value);
  const verdict =
    froms.length === 0
      ? { ok: false as const, reason: "no From address" }
      : (froms.map((address) => checkSender(route, address, authResults)).find((v) => !v.ok) ?? { ok: true });
  if (!verdict.ok) {
    const unverified = route.senders.unverified;
    if (unverified === "reject") return reject(message, `unverified sender: ${verdict.reason}`, deps);
    await message.forward(unverified.forwardTo);
    deps.log(`Email from ${from || message.from} quarantined to ${unverified.forwardTo}: ${verdict.reason}`);
    return { kind: "quarantined", reason: verdict.reason };
  }
  const messageId = parsed.messageId?.trim() || `<sha256:${await sha256Hex(raw)}>`;
  const references = idsIn(parsed.references);
  const inReplyTo = idsIn(parsed.inReplyTo)[0];
  const root = references[0] ?? inReplyTo ?? messageId;
  const participants = [...froms, ...addressesIn(parsed, "to"), ...addressesIn(parsed, "cc")];
  let threadSessionId: string;
  try {
    threadSessionId = await threadSessionOf(
      route,
      { appName: app.name, root, from: froms, participants },
      deps.ledger,
    );
  } catch (error) {
    if (error instanceof BatonError && error.code === "invalid_request")
      return reject(message, error.message, deps);
    throw error;
  }
  const email: InboundEmail = {
    envelopeFrom: message.from,
    to: message.to,
    from: { address: from, name: parsed.from?.name ?? "" },
    subject: parsed.subject ?? "",
    text: parsed.text ?? "",
    messageId,
    inReplyTo,
    references,
    threadSessionId,
    attachments: parsed.attachments.map((a) => ({
      filename: a.filename,
      mimeType: a.mimeType,
      size: typeof a.content === "string" ? a.content.length : a.content.byteLength,
    })),
  };
  let turn: TurnRequest | null;
  try {
    turn = await toTurn(app.name, route, email);
  } catch (error) {
    // The message is the sender's fault (a field `toTurn` needs is missing): bounce it, store nothing.
    if (error instanceof BatonError && error.code === "invalid_request")
      return reject(message, error.message, deps);
    throw error;
  }
  if (!turn) return { kind: "dropped" };
  const context = {
    from,
    to: message.to,
    subject: email.subject,
    messageId,
    references: [...references, messageId],
  };
  const claim = {
    appName: app.name,
    origin: "email" as const,
    source: route.name,
    deliveryId: messageId,
    turn,
  };
  return enqueueTurn({ ...claim, context }, deps);
}

function reject(message: IncomingEmail, reason: string, deps: ReceiveDeps): EmailOutcome {
  message.setReject(reason);
  deps.log(`Email from ${message.from} to ${message.to} refused: ${reason}`);
  return { kind: "rejected", reason };
}

/** The `<…>` message ids in a header value, in order. */
const idsIn = (value: string | undefined): string[] => value?.match(/<[^<>\s]+>/g) ?? [];

/** The route's turn for an email, checked as a webhook's `toTurn` result is. */
async function toTurn(appName: string, route: EmailRoute, email: InboundEmail): Promise<TurnRequest | null> {
  const where = `The email route of app "${appName}"`;
  let made: Awaited<ReturnType<EmailRoute["toTurn"]>>;
  try {
    made = await route.toTurn(email);
  } catch (error) {
    const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    throw new BatonError("invalid_request", `${where} could not map this email to a turn (${reason}).`);
  }
  if (made === null) return null;
  const { newMessage, ...rest } = made;
  const parsed = TurnRequestSchema.safeParse({
    userId: route.userId,
    sessionId: email.threadSessionId,
    ...rest,
    newMessage: typeof newMessage === "string" ? userText(newMessage) : newMessage,
  });
  if (!parsed.success) {
    const fields = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new BatonError("internal", `${where} returned an invalid turn from toTurn: ${fields}`);
  }
  assertSafeShape(parsed.data, "the email's turn");
  if (parsed.data.stateDelta) assertSafeState(parsed.data.stateDelta, "the email's stateDelta");
  return parsed.data;
}
