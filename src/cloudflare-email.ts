/**
 * `@baton-agents/core/cloudflare/email`: inbound email for `createWorker` (`email: inboundEmail`), kept out
 * of the main entry so Workers without email bundle no MIME library.
 */
export { type EmailSupport, inboundEmail } from "./email/email-support.js";
export type { EmailOutcome, IncomingEmail } from "./email/receive-email.js";
