/** The workflow twin's ADK side: each scenario on ADK TS 2.0 (`@google/adk`, a dev dependency used only here). */
import {
  BaseLlm,
  type BaseNode,
  createEvent,
  type Event,
  FunctionNode,
  FunctionTool,
  InMemorySessionService,
  JoinNode,
  LlmAgent,
  type LlmRequest,
  type LlmResponse,
  RequestInput,
  Runner,
  setLogger,
  Workflow,
} from "@google/adk";
import * as z from "zod";
import type { Chain, NodeSpec, Reply, Scenario, Turn } from "./scenarios.js";

/** A zero-latency model that answers from its script, one reply per call (the last repeats). */
class ScriptedLlm extends BaseLlm {
  calls = 0;
  constructor(
    name: string,
    private readonly replies: readonly Reply[],
  ) {
    super({ model: `scripted-${name}` });
  }

  override async *generateContentAsync(_request: LlmRequest): AsyncGenerator<LlmResponse, void> {
    const reply = this.replies[Math.min(this.calls++, this.replies.length - 1)];
    if (!reply) throw new Error("empty script");
    const part =
      "text" in reply
        ? { text: reply.text }
        : { functionCall: { name: reply.call.name, args: reply.call.args } };
    yield { content: { role: "model", parts: [part] } };
  }

  override async connect(): Promise<never> {
    throw new Error("The scripted model has no live mode.");
  }
}

const APP = "twin";
const USER = "u";

/** The scenario's workflow on ADK: one object per node name, so edges share them. */
export function adkWorkflow(scenario: Scenario): Workflow {
  const built = new Map<string, BaseNode | Workflow>();
  const build = (name: string): BaseNode | Workflow => {
    const done = built.get(name);
    if (done) return done;
    const spec = scenario.nodes.find((n) => n.name === name);
    if (!spec) throw new Error(`no node ${name}`);
    const made = buildNode(spec, scenario, build);
    built.set(name, made);
    return made;
  };
  return new Workflow({ name: scenario.root, edges: scenario.edges.map((chain) => edgeOf(chain, build)) });
}

function buildNode(spec: NodeSpec, scenario: Scenario, build: (name: string) => BaseNode | Workflow) {
  switch (spec.kind) {
    case "fn":
      return new FunctionNode(spec.name, (ctx, input) => {
        const result = spec.step(input, (key) => ctx.state.get(key));
        for (const [k, v] of Object.entries(result.set ?? {})) ctx.state.set(k, v);
        if (result.ask !== undefined) return new RequestInput({ message: result.ask });
        if (result.route !== undefined) return createEvent({ route: result.route, output: result.output });
        return result.output;
      });
    case "join":
      return new JoinNode({ name: spec.name });
    case "workflow":
      return new Workflow({ name: spec.name, edges: spec.edges.map((chain) => edgeOf(chain, build)) });
    case "llm":
      return new LlmAgent({
        name: spec.name,
        model: new ScriptedLlm(spec.name, spec.replies),
        instruction: `You are ${spec.name}.`,
        ...(spec.mode ? { mode: spec.mode } : {}),
        ...(spec.outputKey ? { outputKey: spec.outputKey } : {}),
        tools: (spec.tools ?? []).map((tool) => {
          const run = scenario.tools?.[tool];
          if (!run) throw new Error(`no tool ${tool}`);
          return new FunctionTool({
            name: tool,
            description: `The ${tool} tool.`,
            parameters: z.object({ topic: z.string() }),
            execute: (args) => run(args),
          });
        }),
      });
  }
}

function edgeOf(chain: Chain, build: (name: string) => BaseNode | Workflow) {
  return chain.map((element) => {
    if (element === "START") return "START" as const;
    if (typeof element === "string") return build(element);
    if (Array.isArray(element)) return element.map(build);
    return Object.fromEntries(Object.entries(element).map(([route, name]) => [route, build(name)]));
  });
}

/** Runs the scenario's turns on ADK's runner and returns the session's stored events. */
export async function runOnAdk(scenario: Scenario, sessionId = "s"): Promise<Event[]> {
  setLogger(null);
  const sessions = new InMemorySessionService();
  const runner = new Runner({ appName: APP, agent: adkWorkflow(scenario), sessionService: sessions });
  const key = { appName: APP, userId: USER, sessionId };
  await sessions.createSession(key);
  for (const turn of scenario.turns) {
    const session = await sessions.getSession(key);
    const newMessage = messageOf(turn, session?.events ?? []);
    for await (const _ of runner.runAsync({ userId: USER, sessionId, newMessage }));
  }
  return (await sessions.getSession(key))?.events ?? [];
}

function messageOf(turn: Turn, events: readonly Event[]) {
  if ("text" in turn) return { role: "user", parts: [{ text: turn.text }] };
  const id = events.findLast((e) => (e.longRunningToolIds?.length ?? 0) > 0)?.longRunningToolIds?.[0];
  const response: Record<string, unknown> =
    typeof turn.answer === "object" && turn.answer !== null ? { ...turn.answer } : { result: turn.answer };
  return {
    role: "user",
    parts: [{ functionResponse: { ...(id ? { id } : {}), name: "adk_request_input", response } }],
  };
}
