/**
 * Which hosts reach the server's own machine or network rather than the internet (decisions 039, 048):
 * loopback, private, CGNAT, link-local, multicast and reserved IPv4; the IPv6 ranges of the same kinds and
 * every IPv6 form that carries an IPv4 address (mapped `::ffff:a.b.c.d`, compatible `::a.b.c.d`, translated
 * `::ffff:0:a.b.c.d`, NAT64 `64:ff9b::/96`, 6to4 `2002::/16`), judged by the address it carries; and the
 * names no public DNS gives out (`localhost`, dotless names, `.local`, `.internal`, …).
 */

/** Names that a resolver answers from the host's own files or network, never from public DNS. */
const LOCAL_NAME = /(^|\.)(localhost|local|internal|home\.arpa|lan|intranet)$/;

/** Whether `name` (no brackets, no trailing dot) is a DNS name only the local network knows. */
export const isLocalName = (name: string): boolean => !name.includes(".") || LOCAL_NAME.test(name);

/** The four octets of a dotted IPv4 literal (as the URL parser writes one), or `undefined`. */
function ipv4(text: string): number[] | undefined {
  const parts = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(text);
  if (!parts) return undefined;
  const octets = parts.slice(1).map(Number);
  return octets.every((octet) => octet <= 255) ? octets : undefined;
}

function privateV4([a = 0, b = 0, c = 0]: readonly number[]): boolean {
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 192 && b === 0 && (c === 0 || c === 2)) ||
    (a === 198 && (b === 18 || b === 19)) ||
    (a === 198 && b === 51 && c === 100) ||
    (a === 203 && b === 0 && c === 113) ||
    a >= 224
  );
}

/** The eight 16-bit groups of an IPv6 literal (`::` expanded, a dotted IPv4 tail read), or `undefined`. */
function ipv6(text: string): number[] | undefined {
  let address = text.toLowerCase();
  const tail = /(\d+\.\d+\.\d+\.\d+)$/.exec(address)?.[1];
  if (tail !== undefined) {
    const octets = ipv4(tail);
    if (!octets) return undefined;
    const [a = 0, b = 0, c = 0, d = 0] = octets;
    address = `${address.slice(0, -tail.length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = address.split("::");
  if (halves.length > 2) return undefined;
  const groups = (half: string | undefined) => (half ? half.split(":") : []);
  const head = groups(halves[0]);
  const rest = groups(halves[1]);
  const missing = 8 - head.length - rest.length;
  if (halves.length === 1 ? missing !== 0 : missing < 1) return undefined;
  const all = [...head, ...Array<string>(halves.length === 2 ? missing : 0).fill("0"), ...rest];
  if (!all.every((group) => /^[0-9a-f]{1,4}$/.test(group))) return undefined;
  return all.map((group) => Number.parseInt(group, 16));
}

/** The IPv4 address in two 16-bit groups. */
const embedded = (high = 0, low = 0): number[] => [high >> 8, high & 0xff, low >> 8, low & 0xff];

function privateV6(g: readonly number[]): boolean {
  const [g0 = 0, g1 = 0, g2 = 0, g3 = 0, g4 = 0, g5 = 0, g6 = 0, g7 = 0] = g;
  const zeroHead = g0 === 0 && g1 === 0 && g2 === 0 && g3 === 0;
  // ::/96 (unspecified, loopback, IPv4-compatible) and ::ffff:0:0/96 (IPv4-translated): never the internet.
  if (zeroHead && g4 === 0 && g5 === 0) return true;
  if (zeroHead && g4 === 0xffff && g5 === 0) return true;
  // ::ffff:0:0/96 mapped, 64:ff9b::/96 and 64:ff9b:1::/48 NAT64: the IPv4 address they carry decides.
  if (zeroHead && g4 === 0 && g5 === 0xffff) return privateV4(embedded(g6, g7));
  if (g0 === 0x64 && g1 === 0xff9b && (g2 === 1 || (g2 === 0 && g3 === 0 && g4 === 0 && g5 === 0)))
    return privateV4(embedded(g6, g7));
  // 2002::/16 6to4 carries its IPv4 address in the next 32 bits.
  if (g0 === 0x2002) return privateV4(embedded(g1, g2));
  return (
    (g0 & 0xfe00) === 0xfc00 || // fc00::/7 unique local
    (g0 & 0xffc0) === 0xfe80 || // fe80::/10 link-local
    (g0 & 0xffc0) === 0xfec0 || // fec0::/10 site-local (deprecated)
    (g0 & 0xff00) === 0xff00 || // ff00::/8 multicast
    (g0 === 0x2001 && g1 === 0) || // 2001::/32 Teredo (a tunnel to anywhere)
    (g0 === 0x2001 && g1 === 0xdb8) || // 2001:db8::/32 documentation
    (g0 === 0x100 && g1 === 0 && g2 === 0 && g3 === 0) // 100::/64 discard
  );
}

/** An IP literal (`127.0.0.1`, `::1`, `[::1]`) as `"v4" | "v6"` and whether it is private; `undefined` for a name. */
export function ipLiteral(host: string): { private: boolean } | undefined {
  const bare = host.startsWith("[") && host.endsWith("]") ? host.slice(1, -1) : host;
  const v4 = ipv4(bare);
  if (v4) return { private: privateV4(v4) };
  const v6 = bare.includes(":") ? ipv6(bare) : undefined;
  if (v6) return { private: privateV6(v6) };
  // Something bracketed or with colons that is no address: treat it as the server's own, never as public.
  return bare.includes(":") ? { private: true } : undefined;
}

/** Whether `host` (a URL's hostname, or a resolved address) reaches the server's own machine or network. */
export function isPrivateHost(host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, "");
  return ipLiteral(name)?.private ?? isLocalName(name);
}
