import type { EmailRoute } from "../core/email.js";
import type { Env } from "../core/ports.js";
import type { App } from "../runner/app.js";
import type { TurnSource } from "../webhooks/turn-sources.js";
import { emailSource } from "./email-source.js";
import { type EmailOutcome, type IncomingEmail, type ReceiveDeps, receiveEmail } from "./receive-email.js";

/**
 * Inbound email for `createWorker`: the `email` handler's work and the reply path. Registered, not built in,
 * so a Worker without email bundles no MIME parser or builder (decision 036).
 */
export interface EmailSupport {
  receive(apps: ReadonlyMap<string, App>, message: IncomingEmail, deps: ReceiveDeps): Promise<EmailOutcome>;
  source(route: EmailRoute, env: Env): TurnSource;
}

/**
 * Parses with postal-mime, replies with mimetext through the route's `send_email` binding.
 * @example
 * import { inboundEmail } from "@baton-agents/core/cloudflare/email";
 * export default createWorker({ apps: [helpdesk], email: inboundEmail });
 */
export const inboundEmail: EmailSupport = { receive: receiveEmail, source: emailSource };
