// The ways the chaos run keeps turns busy when it kills the dev server: each drives one fresh session.
import type { Random } from "../../workers/fuzz/prng.js";
import type { Mode, Sent } from "./checks.js";

/** What a scenario's driver may do: send a message, and know whether the dev server was killed. */
export interface Driver {
  origin: string;
  app: string;
  session: string;
  random: Random;
  /** True once this round's kill came: a driver sends nothing after it. */
  killed(): boolean;
  /** Sends one message (its tag leads its text) the way the scenario does, and records its answer. */
  send(text: string, how?: "run" | "run_sse"): Promise<void>;
  /** Waits `ms`, or less when the kill comes first. */
  pause(ms: number): Promise<void>;
  /** A new tag for a message of this session. */
  tag(): string;
  /** Records a message sent another way (a webhook delivery, a cron firing). */
  record(message: Sent): void;
  /** The secret the `hooked` app's webhook checks. */
  hookSecret: string;
}

/** One way a turn is busy when the kill comes. */
export interface Scenario {
  name: string;
  app: string;
  mode: Mode;
  /** Its turns run outside the session's object (the queue consumer): they resume once the lease lapses. */
  outside?: boolean;
  /** The session it drives, when not one the run names (a cron firing's). */
  session?: (round: number) => string;
  /** Its turns make their session (a webhook's, a cron firing's): the run makes none. */
  ownSession?: boolean;
  /** The session's user, when not `u` (a webhook's user is in Baton's reserved namespace). */
  userId?: string;
  drive(driver: Driver): Promise<void>;
}

/** A burst: the first message keeps the session busy, the others come while it runs. */
const burst = (first: string, rest: readonly string[]) => async (d: Driver) => {
  const sends = [d.send(`${d.tag()} ${first}`)];
  for (const text of rest) {
    await d.pause(150 + d.random.int(250));
    if (d.killed()) break;
    sends.push(d.send(`${d.tag()} ${text}`.trim()));
  }
  await Promise.all(sends);
};

export const SCENARIOS: readonly Scenario[] = [
  {
    name: "a model stream",
    app: "solo",
    mode: "reject",
    drive: (d) => d.send(`${d.tag()} stream ${8 + d.random.int(8)}`, "run_sse"),
  },
  {
    name: "a slow tool (not idempotent)",
    app: "solo",
    mode: "reject",
    drive: (d) => d.send(`${d.tag()} pay ${1500 + d.random.int(2500)}`),
  },
  {
    name: "between two appends (a chain of idempotent tool calls)",
    app: "solo",
    mode: "reject",
    drive: (d) => d.send(`${d.tag()} chain ${6 + d.random.int(10)}`),
  },
  {
    name: "messages waiting (enqueue)",
    app: "queued",
    mode: "enqueue",
    drive: burst("pay 1800", ["", "stream 4"]),
  },
  {
    name: "messages waiting (latest)",
    app: "latest",
    mode: "latest",
    drive: burst("think 2000", ["", "stream 3", ""]),
  },
  {
    name: "messages waiting (merge)",
    app: "merged",
    mode: "merge",
    drive: burst("pay 2000", ["", "think 300", ""]),
  },
  {
    name: "messages waiting (merge, debounced)",
    app: "merged-debounced",
    mode: "merge",
    drive: burst("", ["stream 4", "", "think 500"]),
  },
  {
    name: "messages waiting (enqueue, debounced)",
    app: "queued-debounced",
    mode: "enqueue",
    drive: burst("think 800", ["", "pay 800"]),
  },
  {
    name: "compaction",
    app: "compacting",
    mode: "reject",
    drive: async (d) => {
      // Each turn ends with a summary call (1.5 s): the second turn comes once the first ended.
      await d.send(`${d.tag()} think ${d.random.int(800)}`);
      if (!d.killed()) await d.send(`${d.tag()} stream 3`);
    },
  },
  {
    name: "a remote A2A call",
    app: "remote",
    mode: "reject",
    drive: (d) => d.send(`${d.tag()} peer`),
  },
  {
    name: "a webhook turn",
    app: "hooked",
    mode: "reject",
    outside: true,
    ownSession: true,
    userId: "baton:webhook:u",
    drive: async (d) => {
      const tag = d.tag();
      const sent: Sent = { tag, sentAt: Date.now() };
      d.record(sent);
      const res = await fetch(`${d.origin}/webhooks/hooked/in`, {
        method: "POST",
        headers: {
          authorization: `Bearer ${d.hookSecret}`,
          "idempotency-key": tag.slice(1),
          "content-type": "application/json",
        },
        body: JSON.stringify({ session: d.session, text: `${tag} think ${2000 + d.random.int(3000)}` }),
      }).catch(() => undefined);
      if (!res) return;
      sent.status = res.status;
      // SAFETY: a webhook's 202 is `{ turnId, sessionId }` (handlers/webhooks.ts); anything else lacks `turnId`.
      const accepted = (await res.json().catch(() => ({}))) as { turnId?: string };
      if (accepted.turnId) sent.turnId = accepted.turnId;
    },
  },
  {
    name: "a scheduled turn",
    app: "timed",
    mode: "reject",
    outside: true,
    ownSession: true,
    session: (round) => `timed-${scheduledTime(round)}`,
    drive: async (d) => {
      const time = Number(d.session.slice("timed-".length));
      const sent: Sent = { tag: `#t${time}`, sentAt: Date.now() };
      d.record(sent);
      const cron = encodeURIComponent("* * * * *");
      const res = await fetch(`${d.origin}/cdn-cgi/handler/scheduled?cron=${cron}&time=${time}`).catch(
        () => undefined,
      );
      if (res) sent.status = res.status;
    },
  },
];

/** A cron firing's scheduled time per round: its own minute, far from any real firing of the dev server. */
export const scheduledTime = (round: number): number => Date.UTC(2031, 0, 1) + round * 60_000;
