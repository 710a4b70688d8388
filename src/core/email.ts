import * as z from "zod";
import type { Content } from "./content.js";
import { BatonError } from "./errors.js";

/** An inbound email as `toTurn` sees it: parsed (postal-mime), verified, its thread worked out. */
export interface InboundEmail {
  /** The envelope sender (SMTP `MAIL FROM`). */
  envelopeFrom: string;
  /** The envelope recipient: the address of this app's route it was sent to. */
  to: string;
  /** The `From` header's address and name. */
  from: { address: string; name: string };
  subject: string;
  /** The text body (the HTML body turned to text when the message has no text part). */
  text: string;
  messageId: string;
  inReplyTo: string | undefined;
  references: readonly string[];
  /** The session this message's thread runs in (from `References`, `In-Reply-To`, `Message-ID`). */
  threadSessionId: string;
  /** What the message carried besides its body; not stored (Baton has no artifact service yet). */
  attachments: readonly { filename: string | null; mimeType: string; size: number }[];
}

/** The turn an email becomes; `sessionId` defaults to the thread's session, `userId` to the route's. */
export interface EmailTurn {
  newMessage: string | Content;
  userId?: string;
  sessionId?: string;
  stateDelta?: Record<string, unknown>;
}

/** A message as its thread sees it (decision 048): its From addresses and every address it names (lower case). */
export interface ThreadMessage {
  from: readonly string[];
  participants: readonly string[];
  /** The route's allow-list names every From address: the sender may take part in the thread's first session. */
  allowed: boolean;
}

/** What `onResult` gets once the email's turn is done. */
export interface EmailResult {
  turnId: string;
  userId: string;
  sessionId: string;
  /** The final response's text (empty when the turn ended without one). */
  text: string;
  /** The email the turn came from. */
  email: RepliedEmail;
}

/** What is kept of an email to answer it: who sent it, to which address, and its thread ids. */
export const RepliedEmailSchema = z.object({
  from: z.string(),
  to: z.string(),
  subject: z.string(),
  messageId: z.string(),
  references: z.array(z.string()),
});
export type RepliedEmail = z.infer<typeof RepliedEmailSchema>;

/** A reply to send through the `send_email` binding; Baton sets the addresses and thread headers. */
export interface EmailReply {
  text: string;
  html?: string;
  /** Default `Re: <subject>`. */
  subject?: string;
}

/**
 * Who may start turns by email. `allow`: addresses (`alice@example.com`) or domains (`@example.com`);
 * unset, anyone. `verify`: what the receiving server's `Authentication-Results` must say of the `From`
 * domain (`dmarc`: DMARC passed; `aligned`: DMARC passed, or DKIM or SPF passed for the `From` domain;
 * `none`: no check). `unverified`: refuse the message (`"reject"`, the default) or forward it to a
 * quarantine mailbox (`{ forwardTo }`, a verified Email Routing destination); nothing is stored either way.
 */
export interface SenderPolicy {
  allow?: readonly string[];
  verify?: "dmarc" | "aligned" | "none";
  unverified?: "reject" | { forwardTo: string };
  /** The `authserv-id` whose `Authentication-Results` count (others may be forged). Default `mx.cloudflare.net`. */
  authservId?: string;
}

/** How an app declares its email route (`defineApp({ email: {...} })`). */
export interface EmailRouteConfig {
  /** The address(es) the route answers (as Email Routing sends them to this Worker)… */
  address?: string | readonly string[];
  /** …or a test of the envelope. */
  match?: (envelope: { from: string; to: string }) => boolean;
  /** The turn an email starts, or `null` to drop it (accepted, nothing run). */
  toTurn: (email: InboundEmail) => EmailTurn | null | Promise<EmailTurn | null>;
  /** Answers when the turn is done: return a reply to send, or `null`. */
  onResult?: (result: EmailResult) => EmailReply | null | Promise<EmailReply | null>;
  senders?: SenderPolicy;
  /** The user the thread sessions belong to. Default `email`. */
  userId?: string;
  /** Larger messages are refused before they are read. Default 1 MiB. */
  maxBytes?: number;
  /** The `send_email` binding replies go through. Default `SEND_EMAIL`. */
  sendBinding?: string;
  /** The reply's `From`. Default: the address the email was sent to. */
  replyFrom?: string;
}

export const DEFAULT_EMAIL_MAX_BYTES = 1024 * 1024;
export const DEFAULT_EMAIL_USER = "email";
/** Cloudflare Email Routing's `authserv-id` in the `Authentication-Results` it adds. */
export const CLOUDFLARE_AUTHSERV_ID = "mx.cloudflare.net";

/** An email route as an app holds it: its options filled in and checked. */
export interface EmailRoute {
  readonly name: string;
  matches(envelope: { from: string; to: string }): boolean;
  readonly toTurn: EmailRouteConfig["toTurn"];
  readonly onResult?: EmailRouteConfig["onResult"];
  readonly senders: Required<Omit<SenderPolicy, "allow">> & { allow: readonly string[] | null };
  readonly userId: string;
  readonly maxBytes: number;
  readonly sendBinding: string;
  readonly replyFrom?: string;
}

const ADDRESS = z.email();
const fn = (value: unknown) => typeof value === "function";

const EmailRouteSchema = z
  .object({
    address: z.union([ADDRESS, z.array(ADDRESS).min(1)]).optional(),
    match: z.custom<EmailRouteConfig["match"]>(fn, "match must be a function").optional(),
    toTurn: z.custom<EmailRouteConfig["toTurn"]>(fn, "toTurn must be a function"),
    onResult: z.custom<EmailRouteConfig["onResult"]>(fn, "onResult must be a function").optional(),
    senders: z
      .object({
        allow: z.array(z.string().regex(/^(@[^@\s]+|[^@\s]+@[^@\s]+)$/, "an address or @domain")).optional(),
        verify: z.enum(["dmarc", "aligned", "none"]).default("aligned"),
        unverified: z.union([z.literal("reject"), z.object({ forwardTo: ADDRESS })]).default("reject"),
        authservId: z.string().min(1).default(CLOUDFLARE_AUTHSERV_ID),
      })
      .default({ verify: "aligned", unverified: "reject", authservId: CLOUDFLARE_AUTHSERV_ID }),
    userId: z.string().min(1).max(128).default(DEFAULT_EMAIL_USER),
    maxBytes: z
      .number()
      .int()
      .positive()
      .max(25 * 1024 * 1024)
      .default(DEFAULT_EMAIL_MAX_BYTES),
    sendBinding: z.string().min(1).default("SEND_EMAIL"),
    replyFrom: ADDRESS.optional(),
  })
  .refine((r) => (r.address === undefined) !== (r.match === undefined), {
    message: "give exactly one of address and match",
  });

/** Checks an app's email route: `invalid_config` names the field. */
export function defineEmailRoute(appName: string, config: EmailRouteConfig): EmailRoute {
  const parsed = EmailRouteSchema.safeParse(config);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((i) => `${i.path.join(".") || "email"}: ${i.message}`);
    throw new BatonError(
      "invalid_config",
      `The email route of app "${appName}" is invalid: ${fields.join("; ")}.`,
    );
  }
  const { address, match, senders, ...rest } = parsed.data;
  const addresses = new Set((typeof address === "string" ? [address] : (address ?? [])).map(lower));
  return {
    name: typeof address === "string" ? lower(address) : "email",
    matches: (envelope) => (match ? match(envelope) : addresses.has(lower(envelope.to))),
    toTurn: rest.toTurn,
    ...(rest.onResult ? { onResult: rest.onResult } : {}),
    senders: { ...senders, allow: senders.allow ? senders.allow.map(lower) : null },
    userId: rest.userId,
    maxBytes: rest.maxBytes,
    sendBinding: rest.sendBinding,
    ...(rest.replyFrom ? { replyFrom: rest.replyFrom } : {}),
  };
}

const lower = (address: string) => address.trim().toLowerCase();
