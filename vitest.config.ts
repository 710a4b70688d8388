import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";
import { cloudflareTest } from "@cloudflare/vitest-pool-workers";
import { defineConfig } from "vitest/config";

/**
 * `@baton-agents/core/…` imports inside this repo run the sources: each `exports` entry's `baton-source`
 * condition (tsconfig.json's `customConditions`, wrangler.toml's `[alias]`), not the built `dist/`.
 */
const BATON_SOURCE = Object.entries(
  // SAFETY: package.json's `exports` is this repo's own, one condition map per entry (test/package checks it).
  JSON.parse(readFileSync(new URL("./package.json", import.meta.url), "utf8")).exports as Record<
    string,
    string | Record<string, string>
  >,
).flatMap(([entry, target]) =>
  typeof target === "object" && target["baton-source"]
    ? [
        {
          find: new RegExp(`^@baton-agents/core${entry.slice(1)}$`),
          replacement: fileURLToPath(new URL(target["baton-source"], import.meta.url)),
        },
      ]
    : [],
);

/** wrangler.toml's `[alias]` of zod's subpaths (vite does not read it): the workerd tests run what deploys. */
const LEAN_ZOD = [
  { find: /^zod\/v4$/, replacement: fileURLToPath(new URL("./src/zod/v4.ts", import.meta.url)) },
  { find: /^zod\/v3$/, replacement: fileURLToPath(new URL("./src/zod/v3.ts", import.meta.url)) },
];

/**
 * `standardwebhooks` (the tests' reference signer) publishes source maps to TypeScript sources it does not
 * ship, so vite warns about them on every run. Its JS is loaded here without the dangling map comment.
 */
const withoutDanglingMaps = {
  name: "baton:without-dangling-maps",
  enforce: "pre" as const,
  async load(id: string) {
    if (!/[\\/]node_modules[\\/]standardwebhooks[\\/]dist[\\/][^?]*\.js$/.test(id)) return null;
    const code = await readFile(id, "utf8");
    return { code: code.replace(/^\/\/# sourceMappingURL=.*$/m, ""), map: null };
  },
};

/** The demo entry's `API_TOKENS` secret in workerd tests; the tests read it back with `inject`. */
const WORKERS_API_TOKEN = "workers-test-token";
/** The demo entry's GitHub hook secret in workerd tests (what `npm run dev` sets too). */
const GITHUB_WEBHOOK_SECRET = "dev-only-github-webhook-secret";
/**
 * The in-suite fuzz run: a few hundred requests; `npm run fuzz -- --requests 3000 --seed N` runs more. Its
 * seed differs on every run unless `BATON_FUZZ_SEED` fixes it; the test prints it, so a failure is replayed.
 */
const FUZZ_REQUESTS = Number(process.env.BATON_FUZZ_REQUESTS ?? 250);
const FUZZ_SEED = Number(process.env.BATON_FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));

export default defineConfig({
  test: {
    projects: [
      {
        resolve: { alias: BATON_SOURCE },
        test: { name: "unit", include: ["test/unit/**/*.test.ts"], environment: "node" },
      },
      {
        resolve: { alias: BATON_SOURCE },
        test: { name: "interop", include: ["test/interop/**/*.test.ts"], environment: "node" },
      },
      {
        // Google's ADK conformance cases replayed against the HTTP API; data in ../shared/conformance/adk.
        // Without it the replay is skipped with one line saying why, unless BATON_REQUIRE_CONFORMANCE=1.
        resolve: { alias: BATON_SOURCE },
        test: {
          name: "conformance",
          include: ["test/conformance/**/*.test.ts"],
          environment: "node",
          globalSetup: ["./test/conformance/announce-skip.ts"],
        },
      },
      {
        // The packed tarballs installed into fresh folders, compiled, run and served (test/package): minutes.
        test: {
          name: "package",
          include: ["test/package/**/*.test.ts"],
          environment: "node",
          testTimeout: 600_000,
          hookTimeout: 900_000,
        },
      },
      {
        // ADK's dev UI in headless Chromium against `wrangler dev`; installs Chromium itself when missing.
        test: {
          name: "browser",
          include: ["test/browser/**/*.test.ts"],
          environment: "node",
          globalSetup: ["./test/browser/global-setup.ts"],
          testTimeout: 90_000,
          hookTimeout: 120_000,
        },
      },
      {
        plugins: [
          withoutDanglingMaps,
          cloudflareTest({
            wrangler: { configPath: "./wrangler.toml" },
            // A deployed Worker's secret: the demo entry's HTTP tests authenticate as a client would.
            miniflare: {
              // Fired reminders go to the consumer-less test queue, where each test runs them itself.
              bindings: {
                API_TOKENS: WORKERS_API_TOKEN,
                GITHUB_WEBHOOK_SECRET,
                REMINDER_QUEUE: "TEST_TURNS",
                // A2A push notifications may go to the tests' receiver on loopback (decision 039).
                A2A_PUSH_HOSTS: "*,127.0.0.1",
              },
              // Test-built Workers enqueue here (no consumer); the demo entry keeps the real TURNS consumer.
              queueProducers: { TEST_TURNS: { queueName: "baton-turns-test" } },
              // The R2 eval store's contract tests run on a simulated bucket of their own.
              r2Buckets: ["EVALS_TEST"],
            },
          }),
        ],
        resolve: { alias: [...BATON_SOURCE, ...LEAN_ZOD] },
        test: {
          name: "workers",
          // Beside the other projects on two cores a workerd test can wait seconds for CPU: 5 s timed out.
          testTimeout: 20_000,
          // One module graph for all files: importing src/ (AI SDK providers) in workerd costs ~5 s per file.
          // Every test uses ids of its own, so nothing leaks between files.
          isolate: false,
          include: ["test/workers/**/*.test.ts"],
          // The fake OpenAI-compatible server on 127.0.0.1; its URL reaches the tests through `inject`.
          globalSetup: ["./test/workers/support/global-setup.ts"],
          provide: {
            workersApiToken: WORKERS_API_TOKEN,
            githubWebhookSecret: GITHUB_WEBHOOK_SECRET,
            fuzzRequests: FUZZ_REQUESTS,
            fuzzSeed: FUZZ_SEED,
            fuzzReport: process.env.BATON_FUZZ_REPORT === "1",
          },
        },
      },
    ],
  },
});
