import type { AsymmetricAlgorithm } from "hono/utils/jwt/jwa";
import * as z from "zod";
import { BatonError } from "../core/errors.js";

const ALGORITHMS = [
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
  "ES256",
  "ES384",
  "ES512",
  "EdDSA",
] as const satisfies readonly AsymmetricAlgorithm[];

/** The algorithms accepted when `JWT_ALGORITHMS` is unset: what Cloudflare Access and most OIDC providers sign with. */
export const DEFAULT_JWT_ALGORITHMS: readonly AsymmetricAlgorithm[] = ["RS256", "ES256"];

const list = (value: string) =>
  value
    .split(",")
    .map((part) => part.trim())
    .filter((part) => part !== "");

const VarsSchema = z.object({
  JWT_ISSUER: z.string().min(1),
  JWT_AUDIENCE: z.string().transform(list).pipe(z.array(z.string()).min(1)),
  JWT_JWKS_URL: z.url({ protocol: /^https?$/ }),
  JWT_ALGORITHMS: z
    .string()
    .transform(list)
    .pipe(z.array(z.enum(ALGORITHMS)).min(1))
    .optional(),
  JWT_APPS_CLAIM: z.string().min(1).optional(),
});

/** End-user mode's settings, from the Worker's vars (docs/security.md). */
export interface EndUserConfig {
  issuer: string;
  audience: string[];
  jwksUrl: string;
  algorithms: readonly AsymmetricAlgorithm[];
  /** The claim that lists the apps a token may use; unset, a token may use every app. */
  appsClaim?: string;
}

const NAMES = ["JWT_ISSUER", "JWT_AUDIENCE", "JWT_JWKS_URL", "JWT_ALGORITHMS", "JWT_APPS_CLAIM"] as const;

/**
 * End-user mode's settings when `JWT_ISSUER` is set, else `undefined` (service tokens only). A partial or
 * invalid setting is `invalid_config`: a deploy must not fall back to something looser than it asked for.
 */
export function endUserConfigOf(env: Readonly<Record<string, unknown>>): EndUserConfig | undefined {
  const vars = Object.fromEntries(
    NAMES.flatMap((name) => (env[name] === undefined ? [] : [[name, env[name]]])),
  );
  if (vars.JWT_ISSUER === undefined || vars.JWT_ISSUER === "") return undefined;
  const parsed = VarsSchema.safeParse(vars);
  if (!parsed.success) {
    const fields = parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ");
    throw new BatonError("invalid_config", `End-user mode (JWT_ISSUER is set) is misconfigured: ${fields}`);
  }
  const v = parsed.data;
  return {
    issuer: v.JWT_ISSUER,
    audience: v.JWT_AUDIENCE,
    jwksUrl: v.JWT_JWKS_URL,
    algorithms: v.JWT_ALGORITHMS ?? DEFAULT_JWT_ALGORITHMS,
    ...(v.JWT_APPS_CLAIM === undefined ? {} : { appsClaim: v.JWT_APPS_CLAIM }),
  };
}
