import { it } from "vitest";
import { demoApp } from "../../../src/demo/app.js";
import { createAdkApi } from "../../../src/handlers/api.js";
import { InMemorySessionStore } from "../../../src/session/in-memory-store.js";

it("raw", async () => {
  const store = new InMemorySessionStore();
  const http = createAdkApi(() => ({
    apps: new Map([[demoApp.name, demoApp]]),
    sessionStore: store,
    taskStore: store,
    services: {},
  }));
  const res = await http.request(
    "/a2a/demo",
    {
      method: "POST",
      headers: { "content-type": "application/json", "A2A-Version": "1.0" },
      body: JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "SendStreamingMessage",
        params: {
          message: { messageId: "m", role: "ROLE_USER", parts: [{ text: "What is the weather in Lisbon?" }] },
        },
      }),
    },
    { ALLOW_UNAUTHENTICATED: "true" },
  );
  const text = await res.text();
  for (const f of text.split("\n\n")) console.log(f.slice(0, 160));
});
