/** The twin's anchor side: Google's ADK for TypeScript (`@google/adk`, a dev dependency used only here). */
import {
  BaseLlm,
  createEvent,
  type Event,
  InMemorySessionService,
  LlmAgent,
  type LlmRequest,
  type LlmResponse,
  Runner,
  setLogger,
} from "@google/adk";
import { AGENTS, type AgentName, APP, TREE, type TwinSide, USER, userText } from "./scenario.js";

/** A zero-latency model: one scripted response per call, counted per agent. */
class ScriptedLlm extends BaseLlm {
  constructor(
    private readonly agent: AgentName,
    private readonly calls: Record<AgentName, number>,
    private readonly reply: () => LlmResponse,
  ) {
    super({ model: `scripted-${agent}` });
  }

  override async *generateContentAsync(_request: LlmRequest): AsyncGenerator<LlmResponse, void> {
    this.calls[this.agent]++;
    yield this.reply();
  }

  override async connect(): Promise<never> {
    throw new Error("The scripted model has no live mode.");
  }
}

const text = (reply: string) => (): LlmResponse => ({ content: { role: "model", parts: [{ text: reply }] } });

export function adkSide(): TwinSide {
  setLogger(null);
  const calls = Object.fromEntries(AGENTS.map((a) => [a, 0])) as Record<AgentName, number>;
  const agent = (name: "billing" | "faq") =>
    new LlmAgent({ name, ...descriptive(name), model: new ScriptedLlm(name, calls, text(TREE[name].reply)) });
  const frontDesk = new LlmAgent({
    name: "front_desk",
    ...descriptive("front_desk"),
    // ADK TS's transfer tool takes `agentName` (Python ADK's takes `agent_name`).
    model: new ScriptedLlm("front_desk", calls, () => ({
      content: {
        role: "model",
        parts: [{ functionCall: { name: "transfer_to_agent", args: { agentName: "billing" } } }],
      },
    })),
    subAgents: [agent("billing"), agent("faq")],
  });
  const sessions = new InMemorySessionService();
  const runner = new Runner({ appName: APP, agent: frontDesk, sessionService: sessions });
  const key = (sessionId: string) => ({ appName: APP, userId: USER, sessionId });
  const load = async (sessionId: string) => {
    const session = await sessions.getSession(key(sessionId));
    if (!session) throw new Error(`No session ${sessionId}`);
    return session;
  };
  return {
    calls,
    hasBound: false,
    createSession: async (sessionId) => void (await sessions.createSession(key(sessionId))),
    deleteSession: (sessionId) => sessions.deleteSession(key(sessionId)),
    async turn(sessionId, i) {
      const newMessage = { role: "user", parts: [{ text: userText(i) }] };
      for await (const _ of runner.runAsync({ userId: USER, sessionId, newMessage }));
    },
    async appendPairs(sessionId, pairs) {
      const session = await load(sessionId);
      const [user, billing] = session.events.slice(-2) as [Event, Event];
      for (let p = 0; p < pairs; p++) {
        const invocationId = `e-hist-${sessionId}-${p}`;
        for (const template of [user, billing])
          await sessions.appendEvent({
            session,
            event: createEvent({
              invocationId,
              ...(template.author === undefined ? {} : { author: template.author }),
              ...(template.content === undefined ? {} : { content: structuredClone(template.content) }),
            }),
          });
      }
    },
    eventCount: async (sessionId) => (await load(sessionId)).events.length,
  };
}

const descriptive = (name: AgentName) => ({
  description: TREE[name].description,
  instruction: TREE[name].instruction,
});
