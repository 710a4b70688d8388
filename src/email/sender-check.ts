import type { EmailRoute } from "../core/email.js";
import { parseAuthResults } from "./auth-results.js";

/** `ok`, or why the sender is not trusted (said in the rejection). */
export type SenderVerdict = { ok: true } | { ok: false; reason: string };

const domainOf = (address: string): string => address.slice(address.lastIndexOf("@") + 1).toLowerCase();

/** Whether `domain` is `base` or one of its subdomains (relaxed DMARC alignment). */
const aligned = (domain: string | undefined, base: string): boolean =>
  domain !== undefined && (domain.toLowerCase() === base || domain.toLowerCase().endsWith(`.${base}`));

/**
 * Checks the `From` address against the route's policy: the allow-list first, then what the receiving
 * server (the first `Authentication-Results` whose `authserv-id` is the route's; others may have been added
 * by the sender) says of the `From` domain. `authResults` are the header values in message order.
 */
export function checkSender(route: EmailRoute, from: string, authResults: readonly string[]): SenderVerdict {
  const { allow, verify, authservId } = route.senders;
  const address = from.toLowerCase();
  const domain = domainOf(address);
  if (allow && !allow.some((entry) => entry === address || entry === `@${domain}`))
    return { ok: false, reason: `sender ${address} is not on the allow-list` };
  if (verify === "none") return { ok: true };
  const ours = authResults.map(parseAuthResults).find((r) => r.authservId === authservId.toLowerCase());
  if (!ours) return { ok: false, reason: `no Authentication-Results from ${authservId}` };
  const passed = (method: string, prop: string) =>
    ours.verdicts.some((v) => v.method === method && v.result === "pass" && aligned(v.props[prop], domain));
  if (passed("dmarc", "header.from")) return { ok: true };
  if (verify === "aligned" && (passed("dkim", "header.d") || passed("spf", "smtp.mailfrom")))
    return { ok: true };
  const wanted = verify === "dmarc" ? "DMARC" : "DMARC, DKIM or SPF";
  return { ok: false, reason: `${wanted} did not pass for ${domain}` };
}
