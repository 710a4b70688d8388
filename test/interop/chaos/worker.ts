// The chaos run's Worker under `wrangler dev` (wrangler.toml beside it): one app per way a turn can be cut
// off. Every model call goes to the run's fake model server, every tool to its counter, the remote agent to
// its A2A peer, all on 127.0.0.1 (their addresses come in as vars and defines).
import {
  defineApp,
  functionTool,
  LlmAgent,
  RemoteA2aAgent,
  userText,
  verifiers,
  webhook,
} from "@baton-agents/core";
import { createWorker } from "@baton-agents/core/cloudflare";
import { openaiCompatible } from "@baton-agents/core/models/openai-compatible";
import * as z from "zod";

export { AppObject, SessionObject, TurnObject, UserObject } from "@baton-agents/core/cloudflare";

/** The A2A peer's card, fixed when the run starts the dev server (`--define`). */
declare const CHAOS_PEER_CARD: string;

const counter = (ctx: { invocation: { services: { env: Record<string, unknown> } } }) =>
  String(ctx.invocation.services.env.COUNTER_URL);

/** Charges once per `ref`: not idempotent, so a resumed turn never calls it again (the counter checks). */
const charge = functionTool({
  name: "charge",
  description: "Charges the card for the order `ref`; `hold` is how long the bank takes (ms).",
  parameters: z.object({ ref: z.string(), hold: z.number() }),
  execute: async ({ ref, hold }, ctx) => {
    const url = `${counter(ctx)}/charge?ref=${encodeURIComponent(ref)}&hold=${hold}`;
    const res = await fetch(url, ctx.abortSignal ? { signal: ctx.abortSignal } : {});
    return { charged: await res.text() };
  },
});

/** Reads a step of a chain: idempotent, so a resumed turn may read it again. */
const lookup = functionTool({
  name: "lookup",
  description: "Looks up step `step` of the order `ref`.",
  parameters: z.object({ ref: z.string(), step: z.number() }),
  idempotent: true,
  execute: async ({ ref, step }, ctx) => {
    const res = await fetch(`${counter(ctx)}/lookup?ref=${encodeURIComponent(ref)}&step=${step}`);
    return { found: await res.text() };
  },
});

const MODEL = "openai-compatible:chaos";
const agent = () => new LlmAgent({ name: "root", model: MODEL, tools: [charge, lookup] });

export default createWorker({
  models: [openaiCompatible()],
  apps: [
    defineApp({ name: "solo", rootAgent: agent() }),
    defineApp({ name: "queued", rootAgent: agent(), doubleTexting: "enqueue" }),
    defineApp({ name: "latest", rootAgent: agent(), doubleTexting: "latest" }),
    defineApp({ name: "merged", rootAgent: agent(), doubleTexting: "merge" }),
    defineApp({
      name: "merged-debounced",
      rootAgent: agent(),
      doubleTexting: { mode: "merge", debounceMs: 400 },
    }),
    defineApp({
      name: "queued-debounced",
      rootAgent: agent(),
      doubleTexting: { mode: "enqueue", debounceMs: 400 },
    }),
    defineApp({
      name: "compacting",
      rootAgent: agent(),
      eventsCompactionConfig: { compactionInterval: 1, overlapSize: 0 },
    }),
    defineApp({
      name: "remote",
      rootAgent: new RemoteA2aAgent({ name: "peer", agentCard: CHAOS_PEER_CARD }),
    }),
    defineApp({
      name: "hooked",
      rootAgent: agent(),
      webhooks: [
        webhook<{ session: string; text: string }>({
          name: "in",
          verify: verifiers.bearer({ secretName: "CHAOS_HOOK_SECRET" }),
          toTurn: ({ payload }) => ({
            userId: "u",
            sessionId: payload.session,
            newMessage: userText(payload.text),
          }),
        }),
      ],
    }),
    defineApp({
      name: "timed",
      rootAgent: agent(),
      schedules: [
        {
          cron: "* * * * *",
          userId: "u",
          session: ({ scheduledTime }) => `timed-${scheduledTime}`,
          message: ({ scheduledTime }) => `#t${scheduledTime} think 3000`,
        },
      ],
    }),
  ],
});
