import PostalMime from "postal-mime";
import { describe, expect, it } from "vitest";
import type { EmailRouteConfig } from "../../../src/core/email.js";
import type { Event } from "../../../src/core/event.js";
import type { Session } from "../../../src/core/session.js";
import { buildReply } from "../../../src/email/email-source.js";
import { defineApp } from "../../../src/runner/app.js";
import { GateAgent } from "../support/gate-agent.js";
import { expectJson, freshIds, noSleep } from "../support/http.js";
import { hookWorker } from "../support/webhooks.js";

const services = { sleep: noSleep, log: () => undefined };
const PASS =
  "mx.cloudflare.net; dkim=pass header.d=example.com header.s=s1; spf=pass smtp.mailfrom=example.com; dmarc=pass header.from=example.com";
const FAIL =
  "mx.cloudflare.net; dkim=fail header.d=example.com; spf=fail smtp.mailfrom=example.com; dmarc=fail header.from=example.com";

interface Mail {
  from?: string;
  subject?: string;
  messageId: string;
  inReplyTo?: string;
  references?: string;
  body: string;
  auth?: readonly string[];
  extra?: string;
}

/** A message as Email Routing hands it to the Worker: CRLF lines, its own Authentication-Results on top. */
function raw(mail: Mail): string {
  const headers = [
    ...(mail.auth ?? [PASS]).map((a) => `Authentication-Results: ${a}`),
    `From: Alice <${mail.from ?? "alice@example.com"}>`,
    "To: help@baton.test",
    `Subject: ${mail.subject ?? "Printer"}`,
    `Message-ID: ${mail.messageId}`,
    ...(mail.inReplyTo ? [`In-Reply-To: ${mail.inReplyTo}`] : []),
    ...(mail.references ? [`References: ${mail.references}`] : []),
    "Date: Wed, 02 Dec 2026 09:00:00 +0000",
    "Content-Type: text/plain; charset=utf-8",
  ];
  return `${headers.join("\r\n")}\r\n\r\n${mail.body}\r\n${mail.extra ?? ""}`;
}

/** A `ForwardableEmailMessage` as the email handler gets it, recording what the Worker did with it. */
function incoming(
  text: string,
  envelope = { from: "alice@example.com", to: "help@baton.test" },
  rawSize?: number,
) {
  const bytes = new TextEncoder().encode(text);
  let read = false;
  const outcome = { rejected: undefined as string | undefined, forwarded: [] as string[], read: () => read };
  const message = {
    ...envelope,
    rawSize: rawSize ?? bytes.byteLength,
    headers: new Headers(),
    // No high-water mark: the stream is pulled only when the handler reads it.
    raw: new ReadableStream<Uint8Array>(
      {
        pull(controller) {
          read = true;
          controller.enqueue(bytes);
          controller.close();
        },
      },
      { highWaterMark: 0 },
    ),
    setReject: (reason: string) => {
      outcome.rejected = reason;
    },
    forward: async (to: string) => void outcome.forwarded.push(to),
    reply: async () => undefined,
  };
  return { message, outcome };
}

function setup(route: Partial<EmailRouteConfig> = {}) {
  const ids = freshIds("mail");
  const gate = new GateAgent({ name: "root" });
  gate.open();
  const app = defineApp({
    name: ids.app,
    rootAgent: gate,
    email: {
      address: "help@baton.test",
      toTurn: (email) => ({ newMessage: `${email.subject}: ${email.text.trim()}` }),
      ...route,
    },
  });
  const sentMail: { from: string; to: string }[] = [];
  const worker = hookWorker(
    { apps: [app], services },
    {
      SEND_EMAIL: {
        send: async (m: { from: string; to: string }) => void sentMail.push({ from: m.from, to: m.to }),
      },
    },
  );
  const session = (sessionId: string) =>
    worker.call(`/apps/${ids.app}/users/baton:email:email/sessions/${sessionId}`);
  return { ...ids, worker, session, sentMail };
}

const said = (events: readonly Event[]) =>
  events.filter((e) => e.author === "user").map((e) => e.content?.parts?.[0]?.text);

describe("inbound email", () => {
  it("runs an email as a turn and continues its thread's session with a reply to it", async () => {
    const t = setup({ onResult: ({ text }) => ({ text: `Answer: ${text}` }) });
    const first = incoming(raw({ messageId: "<m1@example.com>", body: "It is jammed." }));
    await t.worker.email(first.message);
    expect(first.outcome.rejected).toBeUndefined();
    const [queued] = t.worker.sent;
    if (!queued) throw new Error("nothing was queued");
    const turn = await t.worker.turn(queued.turnId);
    expect(turn).toMatchObject({ origin: "email", userId: "baton:email:email", status: "queued" });
    expect(await t.worker.consume()).toMatchObject({ acked: 1 });
    expect(t.sentMail).toEqual([{ from: "help@baton.test", to: "alice@example.com" }]);

    const reply = incoming(
      raw({
        subject: "Re: Printer",
        messageId: "<m3@example.com>",
        inReplyTo: "<reply@baton.test>",
        references: "<m1@example.com> <reply@baton.test>",
        body: "Still jammed.",
      }),
    );
    await t.worker.email(reply.message);
    expect(t.worker.sent).toHaveLength(2);
    expect(await t.worker.consume(t.worker.sent.slice(1))).toMatchObject({ acked: 1 });
    const stored = await expectJson<Session>(t.session(turn.sessionId), 200);
    expect(said(stored.events)).toEqual(["Printer: It is jammed.", "Re: Printer: Still jammed."]);
  });

  it("queues one turn for an email delivered twice", async () => {
    const t = setup();
    const text = raw({ messageId: "<dup@example.com>", body: "Once." });
    await t.worker.email(incoming(text).message);
    await t.worker.email(incoming(text).message);
    expect(t.worker.sent).toHaveLength(1);
  });

  it("refuses a forged sender with nothing stored, even under a forged passing result lower down", async () => {
    const t = setup();
    const forged = incoming(
      raw({ messageId: "<forged@example.com>", body: "Wire money.", auth: [FAIL, PASS] }),
    );
    await t.worker.email(forged.message);
    expect(forged.outcome.rejected).toMatch(
      /unverified sender: DMARC, DKIM or SPF did not pass for example.com/,
    );
    const unsigned = incoming(raw({ messageId: "<bare@example.com>", body: "Hi", auth: [] }));
    await t.worker.email(unsigned.message);
    expect(unsigned.outcome.rejected).toMatch(/no Authentication-Results from mx.cloudflare.net/);
    expect(t.worker.sent).toEqual([]);
    expect((await t.worker.call(`/apps/${t.app}/users/baton:email:email/sessions`)).status).toBe(200);
    expect(
      await expectJson<unknown[]>(t.worker.call(`/apps/${t.app}/users/baton:email:email/sessions`), 200),
    ).toEqual([]);
  });

  it("refuses an oversized message before reading it, with nothing stored", async () => {
    const t = setup({ maxBytes: 1000 });
    const big = incoming(raw({ messageId: "<big@example.com>", body: "x".repeat(2000) }));
    await t.worker.email(big.message);
    expect(big.outcome.rejected).toMatch(/over the limit of 1000/);
    expect(big.outcome.read()).toBe(false);
    // A size the envelope understates is caught while reading.
    const lying = incoming(raw({ messageId: "<lie@example.com>", body: "y".repeat(2000) }), undefined, 10);
    await t.worker.email(lying.message);
    expect(lying.outcome.rejected).toMatch(/over the limit of 1000/);
    expect(t.worker.sent).toEqual([]);
  });

  it("quarantines a sender off the allow-list by forwarding it, running nothing", async () => {
    const t = setup({ senders: { allow: ["@baton.test"], unverified: { forwardTo: "review@baton.test" } } });
    const stranger = incoming(raw({ messageId: "<q@example.com>", body: "Hello" }));
    await t.worker.email(stranger.message);
    expect(stranger.outcome).toMatchObject({ rejected: undefined, forwarded: ["review@baton.test"] });
    expect(t.worker.sent).toEqual([]);
  });

  it("refuses mail to an address no app takes", async () => {
    const t = setup();
    const lost = incoming(raw({ messageId: "<x@example.com>", body: "?" }), {
      from: "alice@example.com",
      to: "nobody@baton.test",
    });
    await t.worker.email(lost.message);
    expect(lost.outcome.rejected).toMatch(/no mailbox here for nobody@baton.test/);
  });

  it("builds the reply in the thread: In-Reply-To, References and a Re: subject, as a MIME parser reads them", async () => {
    const built = buildReply(
      {
        from: "alice@example.com",
        to: "help@baton.test",
        subject: "Printer",
        messageId: "<m1@example.com>",
        references: ["<m0@example.com>", "<m1@example.com>"],
      },
      { text: "Try turning it off and on." },
      { messageId: "<r1@baton.test>" },
    );
    const parsed = await PostalMime.parse(built.raw);
    expect(parsed).toMatchObject({
      subject: "Re: Printer",
      inReplyTo: "<m1@example.com>",
      references: "<m0@example.com> <m1@example.com>",
      messageId: "<r1@baton.test>",
      text: expect.stringContaining("Try turning it off and on."),
    });
    expect(parsed.from?.address).toBe("help@baton.test");
    expect(built).toMatchObject({ from: "help@baton.test", to: "alice@example.com" });
  });
});
