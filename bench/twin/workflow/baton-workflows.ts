/** The workflow twin's Baton side: each scenario on Baton's public entry, on the AI SDK's mock model. */
import type { LanguageModelV3Content, LanguageModelV3GenerateResult } from "@ai-sdk/provider";
import { MockLanguageModelV3 } from "ai/test";
import * as z from "zod";
import {
  type Content,
  defineApp,
  type Event,
  functionTool,
  InMemorySessionStore,
  JoinNode,
  LlmAgent,
  node,
  RequestInput,
  Runner,
  Workflow,
  type WorkflowNode,
} from "../../../src/index.js";
import type { Chain, NodeSpec, Reply, Scenario, Turn } from "./scenarios.js";

const NO_USAGE = {
  inputTokens: { total: undefined, noCache: undefined, cacheRead: undefined, cacheWrite: undefined },
  outputTokens: { total: undefined, text: undefined, reasoning: undefined },
};

/** A zero-latency model that answers from its script, one reply per call (the last repeats). */
function scripted(name: string, replies: readonly Reply[]): MockLanguageModelV3 {
  let calls = 0;
  const model: MockLanguageModelV3 = new MockLanguageModelV3({
    provider: "scripted",
    modelId: `scripted-${name}`,
    doGenerate: async (): Promise<LanguageModelV3GenerateResult> => {
      model.doGenerateCalls.length = 0;
      const reply = replies[Math.min(calls++, replies.length - 1)];
      if (!reply) throw new Error("empty script");
      const content: LanguageModelV3Content[] =
        "text" in reply
          ? [{ type: "text", text: reply.text }]
          : [
              {
                type: "tool-call",
                toolCallId: "",
                toolName: reply.call.name,
                input: JSON.stringify(reply.call.args),
              },
            ];
      const finishReason = { unified: "text" in reply ? "stop" : "tool-calls", raw: undefined } as const;
      return { content, finishReason, usage: NO_USAGE, warnings: [] };
    },
  });
  return model;
}

const APP = "twin";
const USER = "u";

/** The scenario's workflow on Baton: one node per name, so edges share them. */
export function batonWorkflow(scenario: Scenario): Workflow {
  const built = new Map<string, WorkflowNode | LlmAgent>();
  const build = (name: string): WorkflowNode | LlmAgent => {
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

function buildNode(spec: NodeSpec, scenario: Scenario, build: (name: string) => WorkflowNode | LlmAgent) {
  switch (spec.kind) {
    case "fn":
      return node(
        (ctx, input) => {
          const result = spec.step(input, (key) => ctx.state.get(key));
          for (const [k, v] of Object.entries(result.set ?? {})) ctx.state.set(k, v);
          if (result.ask !== undefined) return new RequestInput({ message: result.ask });
          if (result.route !== undefined)
            return ctx.newEvent({ output: result.output, actions: { route: result.route } });
          return result.output;
        },
        { name: spec.name },
      );
    case "join":
      return new JoinNode({ name: spec.name });
    case "workflow":
      return new Workflow({ name: spec.name, edges: spec.edges.map((chain) => edgeOf(chain, build)) });
    case "llm":
      return new LlmAgent({
        name: spec.name,
        model: scripted(spec.name, spec.replies),
        instruction: `You are ${spec.name}.`,
        ...(spec.mode ? { mode: spec.mode } : {}),
        ...(spec.outputKey ? { outputKey: spec.outputKey } : {}),
        tools: (spec.tools ?? []).map((tool) => {
          const run = scenario.tools?.[tool];
          if (!run) throw new Error(`no tool ${tool}`);
          return functionTool({
            name: tool,
            description: `The ${tool} tool.`,
            parameters: z.object({ topic: z.string() }),
            execute: (args) => run(args),
          });
        }),
      });
  }
}

function edgeOf(chain: Chain, build: (name: string) => WorkflowNode | LlmAgent) {
  return chain.map((element) => {
    if (element === "START") return "START" as const;
    if (typeof element === "string") return build(element);
    if (Array.isArray(element)) return element.map(build);
    return Object.fromEntries(Object.entries(element).map(([route, name]) => [route, build(name)]));
  });
}

/** A runner and store of the scenario's app, for turns run one by one (the bench times them). */
export function batonRunner(scenario: Scenario) {
  const store = new InMemorySessionStore();
  const runner = new Runner({
    app: defineApp({ name: APP, rootAgent: batonWorkflow(scenario) }),
    sessionStore: store,
    services: { log: () => undefined },
  });
  return { store, runner, key: (sessionId: string) => ({ appName: APP, userId: USER, sessionId }) };
}

/** Runs the scenario's turns on Baton's runner and returns the session's stored events. */
export async function runOnBaton(scenario: Scenario, sessionId = "s"): Promise<Event[]> {
  const { store, runner, key } = batonRunner(scenario);
  await store.createSession(key(sessionId));
  for (const turn of scenario.turns) {
    const session = await store.getSession(key(sessionId));
    const newMessage = messageOf(turn, session?.events ?? []);
    for await (const _ of runner.run({ userId: USER, sessionId, newMessage }));
  }
  return (await store.getSession(key(sessionId)))?.events ?? [];
}

function messageOf(turn: Turn, events: readonly Event[]): Content {
  if ("text" in turn) return { role: "user", parts: [{ text: turn.text }] };
  const id = events.findLast((e) => (e.longRunningToolIds?.length ?? 0) > 0)?.longRunningToolIds?.[0];
  const response =
    typeof turn.answer === "object" && turn.answer !== null
      ? // SAFETY: a non-null object answer is the scenario's JSON object.
        (turn.answer as Record<string, unknown>)
      : { result: turn.answer };
  return {
    role: "user",
    parts: [{ functionResponse: { ...(id ? { id } : {}), name: "adk_request_input", response } }],
  };
}
