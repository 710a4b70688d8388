import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import type { Verifier } from "../../../src/core/webhook.js";
import { signStandardWebhook } from "../../../src/webhooks/standard-webhooks.js";
import { verifiers } from "../../../src/webhooks/verifiers.js";
import { sign } from "../support/webhooks.js";

const encoder = new TextEncoder();
const bytes = (text: string) => new Uint8Array(encoder.encode(text));

async function check(
  verifier: Verifier,
  body: string,
  headers: Record<string, string>,
  secret: string,
  nowS: number,
) {
  return verifier.verify({ body: bytes(body), headers: new Headers(headers), secret, nowMs: nowS * 1000 });
}

describe("verifiers.github (X-Hub-Signature-256)", () => {
  const github = verifiers.github({ secretName: "S" });
  // GitHub's published example ("Validating webhook deliveries").
  const vector = {
    secret: "It's a Secret to Everybody",
    body: "Hello, World!",
    signature: "sha256=757107ea0eb2509fc211221cce984b8a37570b6d7586c22c46f4379c8b043e17",
  };

  it("accepts GitHub's published test vector", async () => {
    const verdict = await check(
      github,
      vector.body,
      { "x-hub-signature-256": vector.signature },
      vector.secret,
      0,
    );
    expect(verdict).toEqual({ ok: true });
  });

  it("refuses the vector with another secret, another body, a missing header or a malformed one", async () => {
    const header = { "x-hub-signature-256": vector.signature };
    expect((await check(github, vector.body, header, "another secret", 0)).ok).toBe(false);
    expect((await check(github, "Hello, World?", header, vector.secret, 0)).ok).toBe(false);
    expect(await check(github, vector.body, {}, vector.secret, 0)).toEqual({
      ok: false,
      reason: "missing X-Hub-Signature-256",
    });
    expect(
      (await check(github, vector.body, { "x-hub-signature-256": "sha256=zz" }, vector.secret, 0)).ok,
    ).toBe(false);
    expect(
      (await check(github, vector.body, { "x-hub-signature-256": "sha1=abc" }, vector.secret, 0)).ok,
    ).toBe(false);
  });

  it("takes X-GitHub-Delivery as the delivery id", () => {
    expect(github.deliveryId(new Headers({ "x-github-delivery": "72d3162e" }), {})).toBe("72d3162e");
  });
});

describe("verifiers.slack (v0 with X-Slack-Request-Timestamp)", () => {
  const slack = verifiers.slack({ secretName: "S" });
  // Slack's published example ("Verifying requests from Slack").
  const vector = {
    secret: "8f742231b10e8888abcd99yyyzzz85a5",
    timestamp: 1531420618,
    body: "token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c",
    signature: "v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503",
  };
  const headers = {
    "x-slack-request-timestamp": String(vector.timestamp),
    "x-slack-signature": vector.signature,
  };

  it("accepts Slack's published test vector within five minutes of its timestamp, either side", async () => {
    for (const now of [vector.timestamp, vector.timestamp + 300, vector.timestamp - 300])
      expect(await check(slack, vector.body, headers, vector.secret, now)).toEqual({ ok: true });
  });

  it("refuses the vector more than five minutes away, or with another secret or body", async () => {
    expect(await check(slack, vector.body, headers, vector.secret, vector.timestamp + 301)).toEqual({
      ok: false,
      reason: "X-Slack-Request-Timestamp: timestamp outside the 300 s tolerance",
    });
    expect((await check(slack, vector.body, headers, vector.secret, vector.timestamp - 301)).ok).toBe(false);
    expect((await check(slack, vector.body, headers, "0".repeat(32), vector.timestamp)).ok).toBe(false);
    expect((await check(slack, `${vector.body}&x=1`, headers, vector.secret, vector.timestamp)).ok).toBe(
      false,
    );
    expect(
      (await check(slack, vector.body, { "x-slack-signature": vector.signature }, vector.secret, 0)).ok,
    ).toBe(false);
  });

  it("takes the Events API event_id as the delivery id (Slack's retries repeat it)", () => {
    expect(slack.deliveryId(new Headers({ "x-slack-retry-num": "1" }), { event_id: "Ev123" })).toBe("Ev123");
  });
});

describe("verifiers.stripe (Stripe-Signature t/v1)", () => {
  const stripe = verifiers.stripe({ secretName: "S", toleranceSeconds: 60 });
  const secret = "whsec_test_secret";
  const body = JSON.stringify({ id: "evt_1", type: "charge.succeeded", data: { object: {} } });
  const t = 1_800_000_000;

  it("accepts a v1 signature of `t.body`, also when another v1 (a rolled secret) precedes it", async () => {
    const signed = await sign.stripe(secret, body, t);
    expect(await check(stripe, body, signed, secret, t + 60)).toEqual({ ok: true });
    const rolled = {
      "stripe-signature": signed["stripe-signature"].replace(`t=${t},`, `t=${t},v1=${"ab".repeat(32)},`),
    };
    expect(await check(stripe, body, rolled, secret, t)).toEqual({ ok: true });
  });

  it("refuses outside the tolerance, a v0-only header, another secret or another body", async () => {
    const signed = await sign.stripe(secret, body, t);
    expect((await check(stripe, body, signed, secret, t + 61)).ok).toBe(false);
    const v0 = { "stripe-signature": signed["stripe-signature"].replace("v1=", "v0=") };
    expect(await check(stripe, body, v0, secret, t)).toEqual({
      ok: false,
      reason: "no v1 signature in Stripe-Signature",
    });
    expect((await check(stripe, body, signed, "whsec_other", t)).ok).toBe(false);
    expect((await check(stripe, body.replace("evt_1", "evt_2"), signed, secret, t)).ok).toBe(false);
  });

  it("takes the event id as the delivery id", () => {
    expect(stripe.deliveryId(new Headers(), JSON.parse(body))).toBe("evt_1");
  });
});

describe("verifiers.standardWebhooks (webhook-id, webhook-timestamp, webhook-signature)", () => {
  const standard = verifiers.standardWebhooks({ secretName: "S" });
  // The Standard Webhooks reference libraries' test vector.
  const vector = {
    secret: "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw",
    id: "msg_p5jXN8AQM9LWM0D4loKWxJek",
    timestamp: 1614265330,
    body: '{"test": 2432232314}',
    signature: "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=",
  };
  const headers = {
    "webhook-id": vector.id,
    "webhook-timestamp": String(vector.timestamp),
    "webhook-signature": vector.signature,
  };

  it("accepts the reference test vector, alone or after another signature in the list", async () => {
    expect(await check(standard, vector.body, headers, vector.secret, vector.timestamp)).toEqual({
      ok: true,
    });
    const several = { ...headers, "webhook-signature": `v1,Zm9v v2,abc ${vector.signature}` };
    expect(await check(standard, vector.body, several, vector.secret, vector.timestamp + 299)).toEqual({
      ok: true,
    });
  });

  it("agrees with the standardwebhooks package both ways", async () => {
    const signed = sign.standardWebhooks(vector.secret, "{}", "msg_x", 1_900_000_000);
    expect(await check(standard, "{}", signed, vector.secret, 1_900_000_000)).toEqual({ ok: true });
    expect(new Webhook(vector.secret).sign(vector.id, new Date(vector.timestamp * 1000), vector.body)).toBe(
      vector.signature,
    );
  });

  it("signs results (onResult) as the standardwebhooks package does, and the package accepts them", async () => {
    const signed = await signStandardWebhook(
      vector.secret,
      vector.id,
      vector.timestamp * 1000 + 999,
      vector.body,
    );
    expect(signed).toEqual(headers);
    // The package's verify checks the timestamp against its own clock.
    const now = await signStandardWebhook(vector.secret, "msg_y", Date.now(), '{"a":1}');
    expect(new Webhook(vector.secret).verify('{"a":1}', { ...now })).toEqual({ a: 1 });
  });

  it("signs nothing with a secret that is not a Standard Webhooks key", async () => {
    expect(await signStandardWebhook("whsec_not base64!", "msg_z", 1_900_000_000_000, "{}")).toBeNull();
  });

  it("refuses a stale timestamp, another id, another secret, or missing headers", async () => {
    expect((await check(standard, vector.body, headers, vector.secret, vector.timestamp + 301)).ok).toBe(
      false,
    );
    expect(
      (
        await check(
          standard,
          vector.body,
          { ...headers, "webhook-id": "msg_other" },
          vector.secret,
          vector.timestamp,
        )
      ).ok,
    ).toBe(false);
    const other = `whsec_${btoa("another key entirely")}`;
    expect((await check(standard, vector.body, headers, other, vector.timestamp)).ok).toBe(false);
    expect(
      (await check(standard, vector.body, { "webhook-id": vector.id }, vector.secret, vector.timestamp)).ok,
    ).toBe(false);
  });

  it("takes webhook-id as the delivery id", () => {
    expect(standard.deliveryId(new Headers(headers), {})).toBe(vector.id);
  });
});

describe("verifiers.bearer (a shared secret)", () => {
  const shared = verifiers.bearer({ secretName: "S" });

  it("accepts the exact token and refuses another, a prefix of it, or none", async () => {
    expect(await check(shared, "{}", { authorization: "Bearer s3cret-token" }, "s3cret-token", 0)).toEqual({
      ok: true,
    });
    expect((await check(shared, "{}", { authorization: "Bearer s3cret" }, "s3cret-token", 0)).ok).toBe(false);
    expect((await check(shared, "{}", { authorization: "Bearer other" }, "s3cret-token", 0)).ok).toBe(false);
    expect((await check(shared, "{}", {}, "s3cret-token", 0)).ok).toBe(false);
  });
});
