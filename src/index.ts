/** Baton's public API. An explicit list: anything not named here is internal. */

export { AgentTool, type AgentToolConfig } from "./agents/agent-tool.js";
export { BaseAgent, type BaseAgentConfig } from "./agents/base-agent.js";
export { CallbackContext, ToolContext } from "./agents/callback-context.js";
export type {
  AfterModelCallback,
  AfterToolCallback,
  AgentCallback,
  BeforeModelCallback,
  BeforeToolCallback,
  ModelErrorCallback,
  ToolErrorCallback,
} from "./agents/callbacks.js";
export { exitLoop } from "./agents/exit-loop-tool.js";
export { type FunctionTool, type FunctionToolConfig, functionTool } from "./agents/function-tool.js";
export { type InstructionProvider, LlmAgent, type LlmAgentConfig } from "./agents/llm-agent.js";
export { LoopAgent, type LoopAgentConfig } from "./agents/loop-agent.js";
export { ParallelAgent, type ParallelAgentConfig } from "./agents/parallel-agent.js";
export { SequentialAgent, type SequentialAgentConfig } from "./agents/sequential-agent.js";
export { State } from "./agents/state.js";
export {
  confirmationRequestEvent,
  confirmedCalls,
  REQUEST_CONFIRMATION,
  readToolConfirmation,
  type ToolConfirmation,
  ToolConfirmationSchema,
} from "./agents/tool-confirmation.js";
export {
  executeFunctionCalls,
  resumeConfirmedCalls,
  runFunctionCalls,
  type ToolCallbacks,
} from "./agents/tool-execution.js";
export {
  type Content,
  ContentSchema,
  type FunctionCall,
  FunctionCallSchema,
  type FunctionResponse,
  FunctionResponseSchema,
  type Part,
  PartSchema,
  userText,
} from "./core/content.js";
export { AgentFailure, BatonError, EVENT_ERROR_CODES, type EventErrorCode } from "./core/errors.js";
export {
  type Event,
  type EventActions,
  EventActionsSchema,
  EventSchema,
  isFinalResponse,
} from "./core/event.js";
export type { Clock, IdSource } from "./core/ids.js";
export { type Session, type SessionKey, SessionSchema } from "./core/session.js";
export { type BatonWorkerEnv, createWorker, type WorkerOptions } from "./handlers/create-worker.js";
export type { LlmRequest, LlmResponse, RetryPolicy } from "./models/llm-request.js";
export { type ModelEnv, type ModelSpec, resolveModel } from "./models/resolve-model.js";
export type { AgentNode, TransferPolicy } from "./router/agent-node.js";
export { findAgentToRun } from "./router/find-agent-to-run.js";
export { isTransferable, transferTargets } from "./router/transfer-targets.js";
export { type App, type AppConfig, defineApp } from "./runner/app.js";
export { Runner, type RunnerOptions, type RunRequest } from "./runner/runner.js";
export type { EventWindow, SessionStore } from "./runner/session-store.js";
export { DurableObjectSessionStore, type SessionStoreEnv } from "./session/do-store.js";
export { InMemorySessionStore } from "./session/in-memory-store.js";
export { AppObject, UserObject } from "./session/scope-objects.js";
export { SessionObject } from "./session/session-object.js";
