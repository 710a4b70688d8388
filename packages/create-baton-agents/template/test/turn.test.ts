import { exports } from "cloudflare:workers";
import { expect, it } from "vitest";

/** An ADK event as `/run` answers it, the fields these tests read. */
interface Event {
  author: string;
  content?: {
    parts?: { text?: string; functionCall?: { name: string; args: Record<string, unknown> } }[];
  };
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

/** One `/run` turn of a new session `sessionId` of alice's, and the events it answered. */
async function turn(sessionId: string, text: string): Promise<Event[]> {
  const created = await call("/apps/baton-app-name/users/alice/sessions", { sessionId });
  expect(created.status).toBe(200);
  const response = await call("/run", {
    appName: "baton-app-name",
    userId: "alice",
    sessionId,
    newMessage: { role: "user", parts: [{ text }] },
  });
  expect(response.status).toBe(200);
  return response.json();
}

it("hands a billing question from the concierge to billing, which looks the invoice up and answers", async () => {
  const events = await turn("s1", "Is invoice 42 paid?");

  expect(events.map((e) => e.author)).toEqual(["concierge", "concierge", "billing", "billing", "billing"]);
  expect(events[1]?.actions.transferToAgent).toBe("billing");
  expect(events[2]?.content?.parts?.[0]?.functionCall).toMatchObject({
    name: "lookup_invoice",
    args: { number: "42" },
  });
  expect(events.at(-1)?.content?.parts?.[0]?.text).toContain("paid");

  // The session keeps the turn: the user's message and every event above, in order.
  const session: { events: Event[] } = await (
    await call("/apps/baton-app-name/users/alice/sessions/s1")
  ).json();
  expect(session.events.map((e) => e.author)).toEqual(["user", ...events.map((e) => e.author)]);
});

it("keeps the file a tool saves as an artifact of the session, listed and served by the artifact routes", async () => {
  const events = await turn("s2", "Download invoice 7");
  expect(events[2]?.content?.parts?.[0]?.functionCall).toMatchObject({
    name: "download_invoice",
    args: { number: "7" },
  });

  const artifacts = "/apps/baton-app-name/users/alice/sessions/s2/artifacts";
  expect(await (await call(artifacts)).json()).toEqual(["invoice-7.txt"]);
  const file: { inlineData: { mimeType: string; data: string } } = await (
    await call(`${artifacts}/invoice-7.txt`)
  ).json();
  expect(file.inlineData.mimeType).toBe("text/plain");
  expect(atob(file.inlineData.data)).toContain("Invoice 7");
});
