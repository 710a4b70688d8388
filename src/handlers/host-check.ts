import type { Context, MiddlewareHandler } from "hono";
import type { HonoEnv } from "./types.js";

/**
 * DNS rebinding (decision 048): a page whose name its owner points at 127.0.0.1 talks to a server on the
 * visitor's machine as if it were its own origin, so `Host` (and `Origin`) name the attacker's host. A
 * request is served only when its host is one of the Worker's own:
 * - a loopback name (`localhost`, `127.0.0.1`, `[::1]`, any port): what `npm run dev` serves at;
 * - a `workers.dev` name: where Cloudflare serves a deployed Worker (nobody can point such a name elsewhere);
 * - an entry of the `ALLOWED_HOSTS` var (comma-separated): `api.example.com` (any port), `api.example.com:8443`,
 *   `*.example.com` (its subdomains), or `*` (any host: the check is off). A deployed Worker on a custom
 *   domain lists it here.
 * A request with an `Origin` is served only when the origin's host is allowed too, or the origin is an entry
 * of the `ALLOWED_ORIGINS` var (`https://app.example.com`, or `*`).
 */
export interface HostSettings {
  ALLOWED_HOSTS?: unknown;
  ALLOWED_ORIGINS?: unknown;
  [key: string]: unknown;
}

const LOOPBACK: ReadonlySet<string> = new Set(["localhost", "127.0.0.1", "[::1]"]);

const listOf = (value: unknown): string[] =>
  typeof value === "string"
    ? value
        .split(",")
        .map((entry) => entry.trim().toLowerCase())
        .filter((entry) => entry !== "")
    : [];

/** Whether `host` (`name[:port]`, as a URL's `host`) is one of the Worker's own under `settings`. */
export function isOwnHost(host: string, settings: HostSettings): boolean {
  const value = host.toLowerCase();
  const name = value.replace(/:\d+$/, "").replace(/\.$/, "");
  if (LOOPBACK.has(name) || name.endsWith(".workers.dev")) return true;
  return listOf(settings.ALLOWED_HOSTS).some(
    (entry) =>
      entry === "*" ||
      entry === value ||
      entry === name ||
      (entry.startsWith("*.") && name.endsWith(entry.slice(1)) && name.length > entry.length - 1),
  );
}

/** The host of an origin (`http://localhost:8787` → `localhost:8787`); `""` for one that is not a URL (`null`). */
function hostOf(origin: string): string {
  try {
    return new URL(origin).host;
  } catch {
    return "";
  }
}

/** Why the request's `Host` or `Origin` is refused; `null` when both are the Worker's own. */
export function hostProblem(request: Request, settings: HostSettings): string | null {
  // A Worker's URL carries the `Host` it was sent (workerd builds it from the header).
  const host = new URL(request.url).host;
  if (!isOwnHost(host, settings)) return `Invalid Host header: ${host} is not a host this Worker serves`;
  const origin = request.headers.get("origin");
  if (origin === null) return null;
  const allowed = listOf(settings.ALLOWED_ORIGINS);
  if (allowed.includes("*") || allowed.includes(origin.toLowerCase())) return null;
  if (isOwnHost(hostOf(origin), settings)) return null;
  return `Invalid Origin header: ${origin} is not an origin this Worker serves`;
}

/**
 * 403 (`refuse` shapes it) unless the request's host and origin are the Worker's own; `when` says whether to
 * check this request (every one, by default).
 */
export function checkHost(
  refuse: (c: Context<HonoEnv>, message: string) => Response,
  when: (c: Context<HonoEnv>) => boolean = () => true,
): MiddlewareHandler<HonoEnv> {
  return async (c, next) => {
    if (!when(c)) return next();
    const problem = hostProblem(c.req.raw, c.env ?? {});
    if (problem !== null) return refuse(c, problem);
    await next();
  };
}
