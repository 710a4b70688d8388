import type { Content, Part } from "../core/content.js";
import type { ModelObject, ModelSpec } from "../core/llm.js";
import type { Env } from "../core/ports.js";

/** A tool as a foreign loop sees it: a JSON Schema and a function that goes through Baton's tool lifecycle. */
export interface RuntimeTool {
  readonly name: string;
  readonly description: string;
  /** JSON Schema of the arguments object. */
  readonly parameters: Record<string, unknown>;
  /** Runs the call through Baton (callbacks, transfer check, confirmation) and returns what the loop sees. */
  execute(args: Record<string, unknown>, callId: string): Promise<Record<string, unknown>>;
  /**
   * For a runtime that checks arguments itself before running a tool: Baton's message for arguments it
   * rejects (a transfer to a name outside the caller's targets names the valid ones), else `undefined`.
   */
  rejects(args: Record<string, unknown>): string | undefined;
}

/** One turn of a runtime agent, as Baton hands it to an adapter. */
export interface RuntimeTurn {
  /** The system prompt: identity, the agent's instruction and the transfer block. */
  readonly systemPrompt: string;
  /** The session history the agent may see, oldest first, in ADK content form. */
  readonly history: readonly Content[];
  readonly tools: readonly RuntimeTool[];
  /**
   * Whether a batch of tool results ends the loop before its next model call: true when one of them
   * transferred (recognised from its output) or paused the turn, or when the invocation's `maxLlmCalls`
   * leaves no room for that call. Adapters ask after every step whose tool results the loop would send
   * back to the model, and only then: a `false` answer counts the next call as made.
   */
  endsLoop(results: readonly { callId: string; output: unknown }[]): boolean;
  /** The invocation's env (provider keys, bindings), for adapters that build their model per turn. */
  readonly env: Env;
  /**
   * The model a `provider:model` string names, through the providers the Worker or runner registered (as an
   * LlmAgent's `model` resolves); a model object passes through. Throws `BatonError("MODEL_CONFIG")` naming
   * the registered prefixes when the prefix is unknown, so no turn reaches a provider nobody registered.
   */
  resolveModel(spec: ModelSpec): ModelObject;
  readonly signal?: AbortSignal | undefined;
}

/** What one step of the foreign loop said: its text and function calls (with their ids), in order. */
export interface RuntimeStep {
  readonly parts: readonly Part[];
  /** Calls the runtime answered itself without running the tool (unknown name, arguments it rejected). */
  readonly rejected?: readonly { callId: string; error: string }[] | undefined;
  readonly finishReason?: string | undefined;
  readonly usageMetadata?: Record<string, unknown> | undefined;
  /** A step the runtime itself reports as failed (no content). */
  readonly errorMessage?: string | undefined;
}

/**
 * The adapter between a RuntimeAgent and a foreign agent loop (AI SDK, pi-agent-core, …). It runs the
 * loop over the turn's prompt, history and tools, and reports each finished step as it happens.
 */
export interface AgentRuntime {
  /** A short name for logs and errors (`ai-sdk`, `pi`). */
  readonly kind: string;
  run(turn: RuntimeTurn): AsyncIterable<RuntimeStep>;
}
