import { exports } from "cloudflare:workers";
import { expect, it } from "vitest";

/** An ADK event as `/run` answers it, the fields this test reads. */
interface Event {
  author: string;
  content?: { parts?: { text?: string; functionCall?: { name: string } }[] };
  actions: { transferToAgent?: string };
}

// A loopback host, as `npm run dev` serves: a Worker that takes requests without tokens answers only its own
// hosts (loopback, workers.dev, ALLOWED_HOSTS) and refuses others 403.
const call = (path: string, body?: unknown) =>
  exports.default.fetch(
    new Request(`http://localhost${path}`, {
      method: body === undefined ? "GET" : "POST",
      headers: { "content-type": "application/json" },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    }),
  );

it("hands a billing question from the concierge to billing, which looks the invoice up and answers", async () => {
  const created = await call("/apps/baton-app-name/users/alice/sessions", { sessionId: "s1" });
  expect(created.status).toBe(200);

  const response = await call("/run", {
    appName: "baton-app-name",
    userId: "alice",
    sessionId: "s1",
    newMessage: { role: "user", parts: [{ text: "Is invoice 42 paid?" }] },
  });
  expect(response.status).toBe(200);
  const events: Event[] = await response.json();

  expect(events.map((e) => e.author)).toEqual(["concierge", "concierge", "billing", "billing", "billing"]);
  expect(events[1]?.actions.transferToAgent).toBe("billing");
  expect(events[2]?.content?.parts?.[0]?.functionCall?.name).toBe("lookup_invoice");
  expect(events.at(-1)?.content?.parts?.[0]?.text).toContain("paid");

  // The session keeps the turn: the user's message and every event above, in order.
  const session: { events: Event[] } = await (
    await call("/apps/baton-app-name/users/alice/sessions/s1")
  ).json();
  expect(session.events.map((e) => e.author)).toEqual(["user", ...events.map((e) => e.author)]);
});
