/**
 * Where push notifications may be sent. A config's URL is the client's to choose, and the server POSTs to
 * it: without a check, a client could make the server call its own network (SSRF; A2A 1.0 §13.2 asks
 * servers to refuse private and loopback addresses and to offer allowlists).
 *
 * `hosts` lists what is allowed: `*` is any public host; `*.example.com` that domain's subdomains; any other
 * entry that exact host name or IP literal, even a private or loopback one (so `localhost` can be allowed
 * for local development and tests, and only by name). The default is `["*"]`.
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
  const host = parsed.hostname.toLowerCase();
  if (policy.hosts.includes(host)) return null;
  const subdomain = policy.hosts.some((entry) => entry.startsWith("*.") && host.endsWith(entry.slice(1)));
  if (isPrivateHost(host))
    return `${host} is a private, loopback or link-local address (allow it by name in the push hosts)`;
  if (policy.hosts.includes("*") || subdomain) return null;
  return `${host} is not among the hosts push notifications may go to`;
}

/** Names and literals that reach the server's own machine or network rather than the internet. */
export function isPrivateHost(host: string): boolean {
  const name = host.replace(/\.$/, "");
  if (name === "localhost" || /\.(localhost|local|internal|home\.arpa)$/.test(name)) return true;
  const v4 = /^(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(name);
  if (v4) return privateV4(v4.slice(1).map(Number));
  if (name.startsWith("[")) return privateV6(name.slice(1, -1));
  return false;
}

function privateV4([a = 0, b = 0]: number[]): boolean {
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    a >= 224
  );
}

function privateV6(address: string): boolean {
  if (address === "::" || address === "::1") return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(address);
  if (mapped?.[1]) return isPrivateHost(mapped[1]);
  // WHATWG writes a mapped IPv4 address in hex (`::ffff:7f00:1`).
  const hexMapped = /^::ffff:([0-9a-f]{1,4}):([0-9a-f]{1,4})$/.exec(address);
  if (hexMapped?.[1] && hexMapped[2]) {
    const high = Number.parseInt(hexMapped[1], 16);
    return privateV4([high >> 8, high & 0xff]);
  }
  const first = Number.parseInt(address.split(":")[0] || "0", 16);
  // fc00::/7 unique local, fe80::/10 link-local, ff00::/8 multicast.
  return (first & 0xfe00) === 0xfc00 || (first & 0xffc0) === 0xfe80 || (first & 0xff00) === 0xff00;
}
