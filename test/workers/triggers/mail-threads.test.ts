import { describe, expect, it } from "vitest";
import type { EmailRouteConfig } from "../../../src/core/email.js";
import type { Session } from "../../../src/core/session.js";
import { defineApp } from "../../../src/runner/app.js";
import { GateAgent } from "../support/gate-agent.js";
import { expectJson, freshIds, noSleep } from "../support/http.js";
import { hookWorker } from "../support/webhooks.js";

const services = { sleep: noSleep, log: () => undefined };
const USER = "baton:email:email";

/** What the receiving server says of a message whose From domain passed DMARC. */
const passed = (...domains: string[]) =>
  domains.map(
    (d) =>
      `mx.cloudflare.net; dkim=pass header.d=${d}; spf=pass smtp.mailfrom=${d}; dmarc=pass header.from=${d}`,
  );

interface Mail {
  from: string;
  to?: string;
  cc?: string;
  messageId: string;
  references?: string;
  body: string;
  auth: readonly string[];
}

/** A message as Email Routing hands it to the Worker. */
function incoming(mail: Mail) {
  const text = [
    ...mail.auth.map((a) => `Authentication-Results: ${a}`),
    `From: ${mail.from}`,
    `To: ${mail.to ?? "help@baton.test"}`,
    ...(mail.cc ? [`Cc: ${mail.cc}`] : []),
    "Subject: Account",
    `Message-ID: ${mail.messageId}`,
    ...(mail.references
      ? [`In-Reply-To: ${mail.references.split(" ").at(-1)}`, `References: ${mail.references}`]
      : []),
    "Content-Type: text/plain; charset=utf-8",
    "",
    mail.body,
  ].join("\r\n");
  const bytes = new TextEncoder().encode(text);
  const outcome: { rejected?: string } = {};
  const message = {
    from: /<([^>]+)>/.exec(mail.from)?.[1] ?? mail.from,
    to: "help@baton.test",
    rawSize: bytes.byteLength,
    raw: new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(bytes);
        controller.close();
      },
    }),
    setReject: (reason: string) => {
      outcome.rejected = reason;
    },
    forward: async () => undefined,
  };
  return { message, outcome };
}

function setup(route: Partial<EmailRouteConfig> = {}) {
  const ids = freshIds("thr");
  const gate = new GateAgent({ name: "root" });
  gate.open();
  const app = defineApp({
    name: ids.app,
    rootAgent: gate,
    email: {
      address: "help@baton.test",
      toTurn: (email) => ({ newMessage: email.text.trim() }),
      onResult: ({ text }) => ({ text }),
      ...route,
    },
  });
  const sentMail: string[] = [];
  const worker = hookWorker(
    { apps: [app], services },
    { SEND_EMAIL: { send: async (m: { to: string }) => void sentMail.push(m.to) } },
  );
  /** Delivers `mail`, runs its turn, and returns the session it ran in (or the rejection). */
  const deliver = async (mail: Mail) => {
    const before = worker.sent.length;
    const { message, outcome } = incoming(mail);
    await worker.email(message);
    if (outcome.rejected !== undefined) return { rejected: outcome.rejected };
    const queued = worker.sent.slice(before);
    expect(await worker.consume(queued)).toMatchObject({ acked: queued.length });
    const [turn] = queued;
    if (!turn) throw new Error("nothing was queued");
    return { sessionId: (await worker.turn(turn.turnId)).sessionId };
  };
  const said = async (sessionId: string) =>
    (
      await expectJson<Session>(worker.call(`/apps/${ids.app}/users/${USER}/sessions/${sessionId}`), 200)
    ).events
      .filter((e) => e.author === "user")
      .map((e) => e.content?.parts?.[0]?.text);
  return { deliver, said, sentMail };
}

const ALICE = { from: "Alice <alice@example.com>", auth: passed("example.com") };
const MALLORY = { from: "Mallory <mallory@evil.example>", auth: passed("evil.example") };

describe("mail threads belong to the addresses that took part in them", () => {
  it("starts a new thread for a stranger whose References name another sender's message", async () => {
    const t = setup();
    const alice = await t.deliver({
      ...ALICE,
      messageId: "<a1@example.com>",
      body: "my account number is 12345",
    });
    const mallory = await t.deliver({
      ...MALLORY,
      messageId: "<m1@evil.example>",
      references: "<a1@example.com>",
      body: "what did I say my account number was?",
    });
    expect(mallory.sessionId).toBeDefined();
    expect(mallory.sessionId).not.toBe(alice.sessionId);
    expect(await t.said(alice.sessionId ?? "")).toEqual(["my account number is 12345"]);
    expect(await t.said(mallory.sessionId ?? "")).toEqual(["what did I say my account number was?"]);
    // Mallory's next reply stays in her own thread; Alice's reply stays in hers.
    const again = await t.deliver({
      ...MALLORY,
      messageId: "<m2@evil.example>",
      references: "<a1@example.com> <m1@evil.example>",
      body: "and now?",
    });
    expect(again.sessionId).toBe(mallory.sessionId);
    const back = await t.deliver({
      ...ALICE,
      messageId: "<a2@example.com>",
      references: "<a1@example.com>",
      body: "thanks",
    });
    expect(back.sessionId).toBe(alice.sessionId);
    expect(await t.said(alice.sessionId ?? "")).toEqual(["my account number is 12345", "thanks"]);
    expect(t.sentMail).toEqual([
      "alice@example.com",
      "mallory@evil.example",
      "mallory@evil.example",
      "alice@example.com",
    ]);
  });

  it("lets an address a message of the thread named in To or Cc continue it", async () => {
    const t = setup();
    const alice = await t.deliver({
      ...ALICE,
      cc: "Bob <bob@example.com>",
      messageId: "<a1@example.com>",
      body: "Bob will follow up",
    });
    const bob = await t.deliver({
      from: "Bob <bob@example.com>",
      auth: passed("example.com"),
      messageId: "<b1@example.com>",
      references: "<a1@example.com>",
      body: "following up",
    });
    expect(bob.sessionId).toBe(alice.sessionId);
  });

  it("does not let a message with two From addresses join a thread one of them took no part in", async () => {
    const t = setup({ senders: { verify: "none" } });
    const alice = await t.deliver({
      ...ALICE,
      messageId: "<a1@example.com>",
      body: "my account number is 12345",
    });
    for (const [i, from] of [
      "Mallory <mallory@evil.example>, Alice <alice@example.com>",
      "Alice <alice@example.com>, Mallory <mallory@evil.example>",
    ].entries()) {
      const both = await t.deliver({
        from,
        auth: [],
        messageId: `<both${i}@evil.example>`,
        references: "<a1@example.com>",
        body: "us two",
      });
      expect([from, both.sessionId === alice.sessionId]).toEqual([from, false]);
    }
    expect(await t.said(alice.sessionId ?? "")).toEqual(["my account number is 12345"]);
  });

  it("refuses a message with two From addresses unless every one of them is verified", async () => {
    const t = setup();
    await t.deliver({ ...ALICE, messageId: "<a1@example.com>", body: "hello" });
    for (const [i, from] of [
      "Mallory <mallory@evil.example>, Alice <alice@example.com>",
      "Alice <alice@example.com>, Mallory <mallory@evil.example>",
    ].entries()) {
      const forged = await t.deliver({
        from,
        auth: passed("evil.example"),
        messageId: `<f${i}@evil.example>`,
        references: "<a1@example.com>",
        body: "it is me, Alice",
      });
      expect([from, forged.rejected]).toEqual([
        from,
        expect.stringMatching(/unverified sender: .*did not pass for example\.com/),
      ]);
    }
  });

  it("lets a sender the route's allow-list names continue its threads, and no one else", async () => {
    const t = setup({ senders: { allow: ["@example.com"], verify: "none" } });
    const alice = await t.deliver({ ...ALICE, messageId: "<a1@example.com>", body: "printer jammed" });
    const carol = await t.deliver({
      from: "Carol <carol@example.com>",
      auth: [],
      messageId: "<c1@example.com>",
      references: "<a1@example.com>",
      body: "same here",
    });
    expect(carol.sessionId).toBe(alice.sessionId);
    const mallory = await t.deliver({
      ...MALLORY,
      messageId: "<m1@evil.example>",
      references: "<a1@example.com>",
      body: "x",
    });
    expect(mallory.rejected).toMatch(/not on the allow-list/);
  });
});
