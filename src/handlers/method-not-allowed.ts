import type { Context } from "hono";
import { TrieRouter } from "hono/router/trie-router";
import { notFound } from "./http-errors.js";

/** The method Hono records for middleware (`use`) and `all()` routes: not a method a route serves. */
const ANY = "ALL";

/**
 * The methods some route of `app` serves at a path, read from its routes as they stand when first asked
 * (each route's method and pattern, matched with Hono's own trie router). `HEAD` comes with `GET`, which
 * Hono answers it with.
 */
export function servedMethods(app: {
  readonly routes: readonly { method: string; path: string }[];
}): (path: string) => string[] {
  let router: TrieRouter<string> | undefined;
  let methods: readonly string[] = [];
  return (path) => {
    if (!router) {
      router = new TrieRouter<string>();
      const served = new Set<string>();
      for (const route of app.routes) {
        if (route.method === ANY) continue;
        router.add(route.method, route.path, route.method);
        served.add(route.method);
      }
      methods = [...served];
    }
    const found = router;
    const allowed = methods.filter((method) => found.match(method, path)[0].length > 0);
    if (allowed.includes("GET")) allowed.push("HEAD");
    return allowed;
  };
}

/**
 * The API's answer when no route took a request: `405` with `Allow` when the path is served under other
 * methods (`OPTIONS`, `HEAD` or `PUT` on a `GET`/`POST` route), else `404` (an unknown path, a trailing
 * slash included).
 */
export function notServed(methodsAt: (path: string) => string[]) {
  return (c: Context): Response => {
    const allowed = methodsAt(c.req.path);
    // A route of this very method let it pass (`/` without the dev UI): there is nothing here for it.
    if (allowed.length === 0 || allowed.includes(c.req.method)) return notFound(c);
    const detail = `Method ${c.req.method} is not allowed here; this path serves ${allowed.join(", ")}.`;
    return c.json({ detail, code: "method_not_allowed" }, 405, { Allow: allowed.join(", ") });
  };
}
