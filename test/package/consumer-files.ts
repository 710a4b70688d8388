/**
 * The files of a fresh project that installs the packed `@baton-agents/core` as a user would: a Worker
 * importing every entry, the Node example of docs/sessions-and-turns.md as a plain `.mjs` script, and the
 * two tsconfigs the issue names (a typical Workers one and a Node `nodenext` one), each with `skipLibCheck`
 * on and off.
 */
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { docBlocks } from "../../scripts/docs/doc-blocks.js";

/**
 * A Worker that reaches every exports entry (`entries`: package.json's, so a new entry is covered too), so
 * every entry's declarations are compiled, and uses the main ones as an app does.
 */
export const workerTs = (entries: readonly string[]) => `${entries
  .map((entry, i) => `import * as entry${i} from "@baton-agents/core${entry.slice(1)}";`)
  .join("\n")}
export const everyEntry = [${entries.map((_, i) => `entry${i}`).join(", ")}];
import { aiSdkRuntime, defineApp, functionTool, LlmAgent, RuntimeAgent } from "@baton-agents/core";
import { createWorker } from "@baton-agents/core/cloudflare";
import { inboundEmail } from "@baton-agents/core/cloudflare/email";
import { mcpServer } from "@baton-agents/core/mcp";
import { anthropic } from "@baton-agents/core/models/anthropic";
import { google } from "@baton-agents/core/models/google";
import { openai } from "@baton-agents/core/models/openai";
import { openaiCompatible } from "@baton-agents/core/models/openai-compatible";
import { workersAi } from "@baton-agents/core/models/workers-ai";
import { piRuntime } from "@baton-agents/core/pi";
import { ZodFirstPartyTypeKind } from "@baton-agents/core/zod/v3";
import { z as z4 } from "@baton-agents/core/zod/v4";
import { z } from "zod";

const lookupInvoice = functionTool({
  name: "lookup_invoice",
  description: "Finds an invoice by number",
  parameters: z.object({ number: z.string() }),
  execute: async ({ number }) => ({ number, status: "paid" }),
});
const billing = new LlmAgent({ name: "billing", description: "Invoices and refunds", model: "demo:billing",
  instruction: "You handle billing.", tools: [lookupInvoice] });
const helper = new RuntimeAgent({ name: "helper", description: "Anything else",
  runtime: aiSdkRuntime({ model: "openai:gpt-4.1-mini" }) });
const root = new LlmAgent({ name: "root", model: "demo:root", instruction: "Route the user.",
  subAgents: [billing, helper] });
export const unused = [piRuntime, ZodFirstPartyTypeKind.ZodString, z4.string()];

export * from "@baton-agents/core/cloudflare";
export default createWorker({
  apps: [defineApp({ name: "helpdesk", rootAgent: root })],
  models: [openai(), google(), anthropic(), workersAi(), openaiCompatible()],
  email: inboundEmail,
  mcp: mcpServer(),
});
`;

/** Every Node-usable entry imported, so a Node project's tsc reads each one's declarations. */
export const nodeEntriesTs = (entries: readonly string[]) => `${entries
  .map((entry, i) => `import * as entry${i} from "@baton-agents/core${entry.slice(1)}";`)
  .join("\n")}
export const everyEntry = [${entries.map((_, i) => `entry${i}`).join(", ")}];
`;

/** A turn on the demo: model with nothing but the core entry and zod installed, run with plain `node`. */
export const CORE_ONLY_MJS = `import { defineApp, functionTool, InMemorySessionStore, LlmAgent, Runner, userText } from "@baton-agents/core";
import * as z from "zod";

const lookupInvoice = functionTool({
  name: "lookup_invoice",
  description: "Finds an invoice by number",
  parameters: z.object({ number: z.string() }),
  execute: async ({ number }) => ({ number, status: "paid" }),
});
const billing = new LlmAgent({ name: "billing", description: "Invoices and refunds", model: "demo:billing",
  instruction: "You handle billing.", tools: [lookupInvoice] });
const root = new LlmAgent({ name: "root", model: "demo:root", instruction: "Route the user.", subAgents: [billing] });
const store = new InMemorySessionStore();
const runner = new Runner({ app: defineApp({ name: "helpdesk", rootAgent: root }), sessionStore: store });
await store.createSession({ appName: "helpdesk", userId: "u1", sessionId: "s1" });
for await (const event of runner.run({ userId: "u1", sessionId: "s1", newMessage: userText("Is invoice 42 paid?") }))
  console.log(JSON.stringify({ author: event.author }));
`;

/**
 * The Node example of docs/sessions-and-turns.md ("Turns in plain Node"), as the guide shows it, on the
 * demo: model: type-checked as JavaScript and run with plain `node`.
 */
export const APP_MJS = `// @ts-check\n${nodeExample()}`;

function nodeExample(): string {
  const guide = readFileSync(join(import.meta.dirname, "../../docs/sessions-and-turns.md"), "utf8");
  const section = guide.slice(guide.indexOf("## Turns in plain Node"));
  const block = docBlocks(section).find((b) => b.lang === "ts" && b.text.includes("new Runner("));
  if (!block) throw new Error('docs/sessions-and-turns.md has no Node example under "Turns in plain Node"');
  return block.text;
}

/** A typical Workers tsconfig: strict, bundler resolution, ES2022, Cloudflare's types and nothing of Node. */
export const workersTsconfig = (skipLibCheck: boolean) => ({
  compilerOptions: {
    target: "ES2022",
    module: "ESNext",
    moduleResolution: "bundler",
    lib: ["ES2022"],
    types: ["@cloudflare/workers-types"],
    strict: true,
    noEmit: true,
    skipLibCheck,
  },
  files: ["worker.ts"],
});

/** A Node tsconfig: nodenext, @types/node, the script checked as JavaScript, every Node-usable entry. */
export const nodeTsconfig = (skipLibCheck: boolean) => ({
  compilerOptions: {
    target: "ES2022",
    module: "nodenext",
    moduleResolution: "nodenext",
    types: ["node"],
    strict: true,
    allowJs: true,
    checkJs: true,
    noEmit: true,
    skipLibCheck,
  },
  files: ["app.mjs", "entries.ts"],
});
