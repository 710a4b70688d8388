// Types for the workerd HTTP tests: the main module behind `exports`, the auth vars, the injected values.
declare global {
  namespace Cloudflare {
    interface GlobalProps {
      mainModule: typeof import("../../../src/worker.js");
    }
    interface Env {
      API_TOKENS?: string;
      ALLOW_UNAUTHENTICATED?: string;
      GITHUB_WEBHOOK_SECRET?: string;
      /** A queue with no consumer: test-built Workers enqueue here, the tests hand the messages to them. */
      TEST_TURNS: Queue<import("../../../src/webhooks/turn-record.js").TurnMessage>;
    }
  }
}

declare module "vitest" {
  export interface ProvidedContext {
    /** Base URL of the fake OpenAI-compatible server on 127.0.0.1 (from the globalSetup). */
    fakeModelUrl: string;
    /** Origin of test/support/fake-gemini-live.ts, the fake Gemini Live server (from the globalSetup). */
    fakeGeminiLiveOrigin: string;
    /** The card URL of the scripted A2A peer on 127.0.0.1 whose task fails (from the globalSetup). */
    a2aPeerCardUrl: string;
    /** Origin of test/support/mcp-test-server.ts, the official SDK's MCP server (from the globalSetup). */
    mcpServerOrigin: string;
    /** Origin of test/support/mcp-v2-server.ts, the official v2 SDK's MCP server (2026-07-28). */
    mcpV2Origin: string;
    /** Another such server, which one test stops (`POST /exit`). */
    stoppableMcpOrigin: string;
    /** The Streamable HTTP endpoint of `@modelcontextprotocol/server-everything`. */
    everythingMcpUrl: string;
    /** The `API_TOKENS` binding the workers project gives the demo entry. */
    workersApiToken: string;
    /** Base URL of the Node receiver of `onResult` deliveries (from the globalSetup). */
    resultReceiverUrl: string;
    /** Base URL of the OTLP collector stand-in; GET answers the bodies it received (from the globalSetup). */
    otlpCollectorUrl: string;
    pushReceiverUrl: string;
    /** The `whsec_` key the receiver verifies `onResult` signatures with. */
    resultSecret: string;
    /** The demo entry's `GITHUB_WEBHOOK_SECRET`. */
    githubWebhookSecret: string;
    /** How many requests the fuzz test sends, and its PRNG seed (`npm run fuzz` sets both). */
    fuzzRequests: number;
    fuzzSeed: number;
    /** Print the fuzz run's figures (`npm run fuzz`). */
    fuzzReport: boolean;
  }
}

export {};
