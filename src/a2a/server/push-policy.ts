import { ipLiteral, isLocalName, isPrivateHost } from "./private-addresses.js";

export { isPrivateHost } from "./private-addresses.js";

/**
 * Where push notifications may be sent. A config's URL is the client's to choose, and the server POSTs to
 * it: without a check, a client could make the server call its own network (SSRF; A2A 1.0 §13.2 asks
 * servers to refuse private and loopback addresses and to offer allowlists). Decisions 039 and 048.
 *
 * `hosts` lists what is allowed: `*` is any public IP address; `*.example.com` that domain's subdomains; any
 * other entry that exact host name or IP literal, even a private or loopback one (so `localhost` can be
 * allowed for local development and tests, and only by name). A host name is allowed only when an entry
 * names it (exactly or by its domain): where a name leads is decided when it is resolved, which a Worker's
 * `fetch` does out of Baton's sight. `http:` is allowed only to a host an entry names; `https:` otherwise.
 * The default is `["*"]`.
 */
export interface PushPolicy {
  hosts: readonly string[];
}

export const DEFAULT_PUSH_POLICY: PushPolicy = { hosts: ["*"] };

/** A push URL longer than this is refused (it is stored with the task and sent on every delivery). */
export const MAX_PUSH_URL_LENGTH = 2048;

/** The policy from a comma-separated list (the `A2A_PUSH_HOSTS` var); unset or empty is the default. */
export function pushPolicyFromList(list: string | undefined): PushPolicy {
  const hosts = (list ?? "")
    .split(",")
    .map((host) => host.trim().toLowerCase())
    .filter((host) => host !== "");
  return hosts.length > 0 ? { hosts } : DEFAULT_PUSH_POLICY;
}

/** How the policy names `host`: exactly, by a `*.domain` entry, or not at all. */
function namedBy(policy: PushPolicy, host: string): "exactly" | "domain" | null {
  if (policy.hosts.includes(host)) return "exactly";
  const domain = policy.hosts.some(
    (entry) => entry.startsWith("*.") && host.endsWith(entry.slice(1)) && host.length > entry.length - 1,
  );
  return domain ? "domain" : null;
}

/** Why the policy refuses `url` as a push target, in words for the client; `null` when it allows it. */
export function pushUrlProblem(url: string, policy: PushPolicy): string | null {
  if (url.length > MAX_PUSH_URL_LENGTH) return `the URL is longer than ${MAX_PUSH_URL_LENGTH} characters`;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "the URL is not an absolute URL";
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") return "the URL is not http(s)";
  if (parsed.username !== "" || parsed.password !== "") return "the URL carries credentials";
  // WHATWG URL parsing normalises IPv4 literals (`2130706433`, `0x7f.1` → `127.0.0.1`) and brackets IPv6.
  const host = parsed.hostname.toLowerCase().replace(/\.$/, "");
  const named = namedBy(policy, host);
  if (parsed.protocol === "http:" && named === null)
    return `http: goes only to a host the push hosts name (${host} is not named); use https:`;
  const literal = ipLiteral(host);
  if (literal?.private || (!literal && isLocalName(host)))
    return named === "exactly"
      ? null
      : `${host} is a private, loopback or link-local address (allow it by name in the push hosts)`;
  if (named !== null) return null;
  if (literal && policy.hosts.includes("*")) return null;
  if (!literal && policy.hosts.includes("*"))
    return `${host} is a host name, which \`*\` does not cover: name it (or its domain, \`*.example.com\`) in the push hosts`;
  return `${host} is not among the hosts push notifications may go to`;
}

/**
 * Why a connection to `host` must not go to `address`, one of the addresses `host` resolved to (checked
 * before each connection where Baton resolves names itself: a Node host's deliveries, `checked-fetch.ts`);
 * `null` when it may. A private address is allowed only when the policy names it, or names the local
 * name (`localhost`, `vm`) that led to it exactly: a public name it names must lead to a public address.
 */
export function addressProblem(host: string, address: string, policy: PushPolicy): string | null {
  if (!isPrivateHost(address)) return null;
  const name = host.toLowerCase().replace(/\.$/, "");
  if (policy.hosts.includes(address) || (isLocalName(name) && policy.hosts.includes(name))) return null;
  return `${host} resolves to ${address}, a private, loopback or link-local address (name the address in the push hosts to allow it)`;
}
