/** The twin's Baton side: the package's public entry, on the AI SDK's mock model (its own conversions run). */
import type { LanguageModelV3GenerateResult } from "@ai-sdk/provider";
import { MockLanguageModelV3 } from "ai/test";
import { defineApp, EventSchema, InMemorySessionStore, LlmAgent, Runner } from "../../src/index.js";
import { AGENTS, type AgentName, APP, TREE, type TwinSide, USER, userText } from "./scenario.js";

const NO_USAGE = {
  inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: undefined, text: undefined, reasoning: undefined },
};

const result = (content: LanguageModelV3GenerateResult["content"]): LanguageModelV3GenerateResult => ({
  content,
  finishReason: { unified: "stop", raw: undefined },
  usage: NO_USAGE,
  warnings: [],
});

export function batonSide(): TwinSide {
  const calls = Object.fromEntries(AGENTS.map((a) => [a, 0])) as Record<AgentName, number>;
  const scripted = (agent: AgentName, reply: () => LanguageModelV3GenerateResult) => {
    const model: MockLanguageModelV3 = new MockLanguageModelV3({
      provider: "scripted",
      modelId: `scripted-${agent}`,
      doGenerate: async () => {
        // The mock keeps every call's options; ADK's scripted model keeps nothing.
        model.doGenerateCalls.length = 0;
        calls[agent]++;
        return reply();
      },
    });
    return model;
  };
  const agent = (name: "billing" | "faq") =>
    new LlmAgent({
      name,
      ...descriptive(name),
      model: scripted(name, () => result([{ type: "text", text: TREE[name].reply }])),
    });
  const frontDesk = new LlmAgent({
    name: "front_desk",
    ...descriptive("front_desk"),
    model: scripted("front_desk", () =>
      result([
        {
          type: "tool-call",
          toolCallId: "",
          toolName: "transfer_to_agent",
          input: '{"agent_name":"billing"}',
        },
      ]),
    ),
    subAgents: [agent("billing"), agent("faq")],
  });
  // As the anchor's twin: the default store, which keeps no traces (decision 041). BATON_TWIN_TRACES=1 keeps
  // them, so the runner records every turn's trace as a Worker's does.
  const store = new InMemorySessionStore({ traces: process.env.BATON_TWIN_TRACES === "1" });
  const services = { log: () => undefined };
  const runner = new Runner({
    app: defineApp({ name: APP, rootAgent: frontDesk }),
    sessionStore: store,
    services,
  });
  const bounded = new Runner({
    app: defineApp({ name: APP, rootAgent: frontDesk, maxHistoryEvents: 50 }),
    sessionStore: store,
    services,
  });
  const key = (sessionId: string) => ({ appName: APP, userId: USER, sessionId });
  const load = async (sessionId: string) => {
    const session = await store.getSession(key(sessionId));
    if (!session) throw new Error(`No session ${sessionId}`);
    return session;
  };
  return {
    calls,
    hasBound: true,
    createSession: async (sessionId) =>
      void (await store.createSession({ appName: APP, userId: USER, sessionId })),
    deleteSession: (sessionId) => store.deleteSession(key(sessionId)),
    async turn(sessionId, i, isBounded = false) {
      const newMessage = { role: "user" as const, parts: [{ text: userText(i) }] };
      for await (const _ of (isBounded ? bounded : runner).run({ userId: USER, sessionId, newMessage }));
    },
    async appendPairs(sessionId, pairs) {
      const [user, billing] = (await load(sessionId)).events.slice(-2);
      if (!user || !billing) throw new Error(`Session ${sessionId} has no sticky turn to copy.`);
      for (let p = 0; p < pairs; p++) {
        const invocationId = `e-hist-${sessionId}-${p}`;
        for (const template of [user, billing])
          await store.appendEvent(
            key(sessionId),
            EventSchema.parse({
              id: crypto.randomUUID(),
              invocationId,
              author: template.author,
              content: structuredClone(template.content),
              timestamp: Date.now() / 1000,
            }),
          );
      }
    },
    eventCount: async (sessionId) => (await load(sessionId)).events.length,
  };
}

const descriptive = (name: AgentName) => ({
  description: TREE[name].description,
  instruction: TREE[name].instruction,
});
