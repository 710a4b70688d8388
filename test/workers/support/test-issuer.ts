/**
 * A test identity provider: an RSA key pair made with WebCrypto, its JWKS served through the `fetch`
 * port Baton is given (so Hono's real `jwk` middleware checks every token), and tokens signed here,
 * independently of the verifier's code.
 */

const RSA = { name: "RSASSA-PKCS1-v1_5", hash: "SHA-256" } as const;

const base64url = (bytes: Uint8Array): string =>
  btoa(String.fromCharCode(...bytes))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");

const encodePart = (part: unknown) => base64url(new TextEncoder().encode(JSON.stringify(part)));

async function rsaPair(): Promise<CryptoKeyPair> {
  const params = { ...RSA, modulusLength: 2048, publicExponent: new Uint8Array([1, 0, 1]) };
  // SAFETY: an RSA generateKey answers a key pair (the overload for symmetric keys answers a CryptoKey).
  return (await crypto.subtle.generateKey(params, true, ["sign", "verify"])) as CryptoKeyPair;
}

/**
 * The issuers' key pair and the forger's, made once per test isolate: an RSA-2048 pair takes 0.1–1 s to
 * make, several seconds on a loaded machine, and two a test pushed tests past their timeout. Sharing them
 * joins no two issuers: each has its own URLs, `kid` and audience, and the forger's key is never theirs.
 */
let keys: Promise<{ issuer: CryptoKeyPair; forger: CryptoKeyPair }> | undefined;
const keyPairs = () => {
  keys ??= Promise.all([rsaPair(), rsaPair()]).then(([issuer, forger]) => ({ issuer, forger }));
  return keys;
};

export interface SignOptions {
  /** Sign with another key than the issuer's (a forged token), under the issuer's `kid` unless `kid` says. */
  key?: CryptoKey;
  kid?: string;
  alg?: string;
}

export type Claims = Record<string, unknown>;

/** A fresh issuer with its own URLs, so no test shares a cached key set with another. */
export async function testIssuer() {
  const id = crypto.randomUUID().slice(0, 8);
  const issuer = `https://issuer-${id}.test/`;
  const audience = `baton-${id}`;
  const jwksUrl = `${issuer}.well-known/jwks.json`;
  const kid = `key-${id}`;
  const { issuer: pair, forger } = await keyPairs();
  const publicJwk = {
    ...(await crypto.subtle.exportKey("jwk", pair.publicKey)),
    kid,
    alg: "RS256",
    use: "sig",
  };
  let jwksFetches = 0;
  let jwksDown = false;

  /** Serves the key set; every other URL goes to the platform's fetch (the fake model server). */
  const fetchPort: typeof fetch = async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    if (url !== jwksUrl) return fetch(input, init);
    jwksFetches += 1;
    if (jwksDown) return new Response("down", { status: 503 });
    return Response.json({ keys: [publicJwk] });
  };

  const now = () => Math.floor(Date.now() / 1000);

  /** A signed JWT; `claims` override the defaults (this issuer, its audience, an hour's validity). */
  async function token(claims: Claims, options: SignOptions = {}): Promise<string> {
    const header = { alg: options.alg ?? "RS256", typ: "JWT", kid: options.kid ?? kid };
    const payload = { iss: issuer, aud: audience, iat: now(), exp: now() + 3600, ...claims };
    const input = `${encodePart(header)}.${encodePart(payload)}`;
    const key = options.key ?? pair.privateKey;
    const signature = await crypto.subtle.sign(RSA, key, new TextEncoder().encode(input));
    return `${input}.${base64url(new Uint8Array(signature))}`;
  }

  return {
    issuer,
    audience,
    jwksUrl,
    fetch: fetchPort,
    token,
    forgerKey: forger.privateKey,
    now,
    /** The vars that turn end-user mode on for this issuer. */
    vars: { JWT_ISSUER: issuer, JWT_AUDIENCE: audience, JWT_JWKS_URL: jwksUrl },
    jwksFetches: () => jwksFetches,
    setJwksDown: (down: boolean) => {
      jwksDown = down;
    },
  };
}
