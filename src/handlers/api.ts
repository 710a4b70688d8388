import { Hono } from "hono";
import { tooLarge as a2aTooLarge, MAX_A2A_BODY_BYTES } from "../a2a/server/json-rpc.js";
import { a2aCards, a2aRest, a2aRpc } from "./a2a.js";
import { resolveApp } from "./app-lookup.js";
import type { ArtifactsSupport } from "./artifacts.js";
import { requireToken, servesWithoutTokens } from "./auth.js";
import { cappedBody } from "./capped-body.js";
import { dev, notEnabled } from "./dev.js";
import { checkHost } from "./host-check.js";
import { onError } from "./http-errors.js";
import { live } from "./live.js";
import { memory } from "./memory.js";
import { meta } from "./meta.js";
import { notServed, servedMethods } from "./method-not-allowed.js";
import { ARTIFACTS_PATH, checkPathIds, ID_PATHS } from "./path-limits.js";
import { run } from "./run.js";
import { guardApp, guardUser } from "./scope-guards.js";
import { sessions } from "./sessions.js";
import { turns } from "./turns.js";
import type { ApiDeps, BatonBindings, HonoEnv } from "./types.js";
import { webhooks } from "./webhooks.js";

/** Requests larger than this get 413 before they are parsed. */
export const MAX_BODY_BYTES = 1024 * 1024;

const TOO_LARGE = `The body is larger than ${MAX_BODY_BYTES} bytes.`;

/**
 * ADK's HTTP API as a Hono app. `deps` is built per request from the Worker's env (the session store
 * needs the Durable Object bindings), which is how the same app runs under tests with other stores.
 */
export function createAdkApi<B extends BatonBindings>(
  deps: (env: B) => ApiDeps,
  extra: {
    mcp?: Hono<HonoEnv> | undefined;
    evals?: Hono<HonoEnv> | undefined;
    artifacts?: ArtifactsSupport | undefined;
  } = {},
): Hono<HonoEnv<B>> {
  const api = new Hono<HonoEnv<B>>();
  api.onError(onError);
  // No route took it: 405 with `Allow` when the path is served under other methods, else 404.
  api.notFound(notServed(servedMethods(api)));
  api.get("/health", (c) => c.json({ status: "ok" }));
  // `npm run dev` serves ADK's dev UI as static assets under /dev-ui/ and sets DEV_UI (docs/decisions).
  api.get("/", (c, next) => (c.env.DEV_UI === "true" ? c.redirect("/dev-ui/") : next()));
  api.use(async (c, next) => {
    c.set("deps", deps(c.env));
    await next();
  });
  // Every body is read (capped) before anything answers, refusals included: see capped-body.ts. A2A
  // answers its 413 as a JSON-RPC error.
  api.use("/a2a/*", cappedBody(MAX_A2A_BODY_BYTES, a2aTooLarge));
  // An artifact travels as base64 in its JSON body: its route takes the largest artifact the limits allow.
  const artifactsCap = extra.artifacts?.maxBodyBytes;
  if (artifactsCap !== undefined) {
    const detail = `The body is larger than ${artifactsCap} bytes.`;
    api.use(
      ARTIFACTS_PATH,
      cappedBody(artifactsCap, (c) => c.json({ detail, code: "payload_too_large" }, 413)),
    );
  }
  api.use(cappedBody(MAX_BODY_BYTES, (c) => c.json({ detail: TOO_LARGE, code: "payload_too_large" }, 413)));
  // A Worker that serves without tokens (`npm run dev`) answers only its own hosts: no page elsewhere can
  // reach it by rebinding its name to 127.0.0.1 (decision 048; MCP checks on every Worker, mcp-route.ts).
  api.use(
    checkHost(
      (c, detail) => c.json({ detail, code: "forbidden" }, 403),
      (c) => servesWithoutTokens(c.env),
    ),
  );
  // Agent cards are public: clients read them to learn how to authenticate.
  api.route("/", a2aCards);
  api.use("/a2a/*", requireToken());
  api.post("/", requireToken());
  api.route("/", a2aRpc);
  api.route("/", a2aRest);
  // Deliveries authenticate with their provider's signature, not an API token.
  api.route("/", webhooks);
  // MCP (`@baton-agents/core/mcp`'s `mcpServer()`), when the Worker serves it: it runs the same auth itself,
  // after CORS preflights and beside its public OAuth metadata (decision 050).
  if (extra.mcp) api.route("/", extra.mcp);
  api.use(requireToken());
  // Ids in the path keep their limits (core/limits.ts) before any guard or store sees them.
  for (const prefix of ["", "/dev"]) for (const path of ID_PATHS) api.use(`${prefix}${path}`, checkPathIds);
  api.use("/dev/apps/:app/debug/trace/session/:session", checkPathIds);
  // End-user tokens reach only their own user's routes, in the apps they cover (docs/decisions/022).
  for (const prefix of ["", "/dev"]) {
    api.use(`${prefix}/apps/:app/*`, guardApp);
    api.use(`${prefix}/apps/:app/users/:user/*`, guardUser);
  }
  api.route("/", turns);
  api.use("/apps/:app/*", resolveApp);
  api.route("/", meta);
  api.route("/", sessions);
  // ADK's artifact routes (`@baton-agents/core/cloudflare/artifacts`), when the Worker serves them; else 501.
  if (extra.artifacts) api.route("/", extra.artifacts.routes);
  api.route("/", memory);
  api.route("/", run);
  api.route("/", live);
  // ADK's eval routes (`@baton-agents/core/cloudflare/evals`), when the Worker serves them; else 501.
  if (extra.evals) api.route("/", extra.evals);
  api.route("/", dev);
  api.route("/", notEnabled({ evals: extra.evals !== undefined, artifacts: extra.artifacts !== undefined }));
  return api;
}
