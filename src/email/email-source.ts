import { EmailMessage } from "cloudflare:email";
import { createMimeMessage } from "mimetext/browser";
import { textOf } from "../core/content.js";
import { type EmailReply, type EmailRoute, type RepliedEmail, RepliedEmailSchema } from "../core/email.js";
import type { Env } from "../core/ports.js";
import type { ResultDeps } from "../webhooks/deliver-result.js";
import type { TurnRecord } from "../webhooks/turn-record.js";
import type { TurnSource } from "../webhooks/turn-sources.js";
import { DEFAULT_RETRY } from "../webhooks/webhook.js";

/** A `send_email` binding (wrangler `[[send_email]]`). */
interface SendEmailBinding {
  send(message: EmailMessage): Promise<unknown>;
}

const isSendEmail = (value: unknown): value is SendEmailBinding =>
  typeof value === "object" && value !== null && typeof Reflect.get(value, "send") === "function";

/** An email route as a turn's source: webhook retries, and `onResult` answering through `send_email`. */
export function emailSource(route: EmailRoute, env: Env): TurnSource {
  const { onResult } = route;
  if (!onResult) return { retry: DEFAULT_RETRY };
  return {
    retry: DEFAULT_RETRY,
    onResult: async (record, final, deps) => {
      const email = RepliedEmailSchema.parse(record.context);
      let reply: EmailReply | null;
      try {
        const result = { turnId: record.turnId, userId: record.userId, sessionId: record.sessionId };
        reply = await onResult({ ...result, text: textOf(final?.content), email });
      } catch (error) {
        deps.log(
          `Turn ${record.turnId}: the email route's onResult threw (${String(error)}); no reply sent.`,
        );
        return "failed";
      }
      return reply ? sendReply(route, env, record, email, reply, deps) : "delivered";
    },
  };
}

/**
 * The reply to `email` as MIME (mimetext): from the address it was sent to (or `from`), to its sender, in
 * its thread (`In-Reply-To` its Message-ID, `References` its references and it), subject `Re: …`.
 */
export function buildReply(
  email: RepliedEmail,
  reply: EmailReply,
  options: { messageId: string; from?: string },
): { from: string; to: string; raw: string } {
  const from = options.from ?? email.to;
  const mime = createMimeMessage();
  mime.setSender(from);
  mime.setRecipient(email.from);
  mime.setSubject(reply.subject ?? (/^re:/i.test(email.subject) ? email.subject : `Re: ${email.subject}`));
  mime.setHeader("Message-ID", options.messageId);
  mime.setHeader("In-Reply-To", email.messageId);
  mime.setHeader("References", email.references.join(" "));
  mime.addMessage({ contentType: "text/plain", data: reply.text });
  if (reply.html !== undefined) mime.addMessage({ contentType: "text/html", data: reply.html });
  return { from, to: email.from, raw: mime.asRaw() };
}

/** Sends the reply through the route's `send_email` binding. Never throws: the turn is done either way. */
async function sendReply(
  route: EmailRoute,
  env: Env,
  record: TurnRecord,
  email: RepliedEmail,
  reply: EmailReply,
  deps: Pick<ResultDeps, "log">,
): Promise<"delivered" | "failed"> {
  const binding = env[route.sendBinding];
  if (!isSendEmail(binding)) {
    deps.log(`Turn ${record.turnId}: no send_email binding ${route.sendBinding}; the reply was not sent.`);
    return "failed";
  }
  const domain = (route.replyFrom ?? email.to).split("@").pop() ?? "localhost";
  // The same id on every attempt: a receiver that sees a reply twice can tell.
  const messageId = `<${record.userEventId}.reply@${domain}>`;
  const built = buildReply(email, reply, {
    messageId,
    ...(route.replyFrom ? { from: route.replyFrom } : {}),
  });
  try {
    await binding.send(new EmailMessage(built.from, built.to, built.raw));
    return "delivered";
  } catch (error) {
    deps.log(`Turn ${record.turnId}: the reply to ${email.from} could not be sent: ${String(error)}`);
    return "failed";
  }
}
