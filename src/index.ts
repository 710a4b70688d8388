/**
 * `baton`: the runtime-neutral public API. It runs in plain Node (and Workers) with the in-memory store;
 * nothing here reaches `cloudflare:*`. Cloudflare's parts are in `@baton-agents/core/cloudflare`. An explicit list:
 * anything not named here is internal.
 */

export { RemoteA2aAgent, type RemoteA2aAgentConfig } from "./a2a/client/remote-a2a-agent.js";
export type { RemoteA2aInterceptor } from "./a2a/client/reply-event.js";
export type {
  ConvertContext,
  EventDraft,
  ResponseConverter,
  ResponseItem,
} from "./a2a/client/response-item.js";
export type { A2aMessage, A2aTask } from "./a2a/protocol/a2a-objects.js";
// A2A push notifications where there is no queue (Node): `InMemorySessionStore`'s `onPush` (decision 039).
export { type DirectPushOptions, directPush } from "./a2a/server/direct-push.js";
export { type PushPolicy, pushPolicyFromList } from "./a2a/server/push-policy.js";
export { AgentTool, type AgentToolConfig } from "./agents/agent-tool.js";
export { BaseAgent, type BaseAgentConfig } from "./agents/base-agent.js";
export {
  EXIT_LOOP_DECLARATION,
  GET_USER_CHOICE_DECLARATION,
  LOAD_ARTIFACTS_DECLARATION,
  LOAD_MEMORY_DECLARATION,
  LOAD_MEMORY_INSTRUCTION,
  LONG_RUNNING_NOTE,
  longRunningDescription,
  PRELOAD_MEMORY_TOOL_NAME,
} from "./agents/builtin-declarations.js";
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
export { ExampleTool } from "./agents/example-tool.js";
export { type Example, type ExampleProvider, ExampleSchema, examplesText } from "./agents/examples-text.js";
export { exitLoop } from "./agents/exit-loop-tool.js";
export { type FunctionTool, type FunctionToolConfig, functionTool } from "./agents/function-tool.js";
export {
  BuiltInCodeExecutor,
  googleMapsGrounding,
  googleSearch,
  googleSearch as GOOGLE_SEARCH,
  urlContext,
  urlContext as URL_CONTEXT,
} from "./agents/gemini-tools.js";
export { getUserChoice } from "./agents/get-user-choice-tool.js";
export { handOff } from "./agents/hand-off.js";
export type { InvocationContext, RunConfig } from "./agents/invocation-context.js";
export { type InstructionProvider, LlmAgent, type LlmAgentConfig } from "./agents/llm-agent.js";
export { loadArtifactsTool, loadArtifactsTool as LOAD_ARTIFACTS } from "./agents/load-artifacts-tool.js";
export { LoopAgent, type LoopAgentConfig } from "./agents/loop-agent.js";
export { loadMemoryTool, pastConversations, preloadMemoryTool } from "./agents/memory-tools.js";
export { ParallelAgent, type ParallelAgentConfig } from "./agents/parallel-agent.js";
export type { RunPlugin } from "./agents/plugins.js";
export { manageRemindersTool, scheduleReminderTool } from "./agents/reminder-tools.js";
export {
  isRequestTool,
  type RequestTool,
  type RequestToolContext,
  type ToolUnion,
} from "./agents/request-tool.js";
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
export { isToolset, type Toolset } from "./agents/toolset.js";
// Where artifact versions and budgets are decided (decision 048): `memoryLedger` in one isolate.
export {
  type ArtifactLedger,
  type LedgerScope,
  type LedgerVersion,
  memoryLedger,
  type Reservation,
  type ReserveOutcome,
} from "./artifacts/artifact-ledger.js";
export {
  BlobArtifactService,
  type BlobArtifactServiceOptions,
  InMemoryArtifactService,
} from "./artifacts/blob-artifact-service.js";
export { type ArtifactBlobs, memoryBlobs } from "./artifacts/blobs.js";
export type {
  AgentConfigRegistry,
  ConfigToolClass,
  LoadAgentConfigOptions,
} from "./config/agent-config-registry.js";
export { AgentConfigError } from "./config/config-error.js";
export { loadAgentConfig } from "./config/load-agent-config.js";
export { readAgentConfigDir } from "./config/read-config-dir.js";
export {
  ARTIFACT_LIMITS,
  type ArtifactLimits,
  type ArtifactRef,
  type ArtifactService,
  type ArtifactVersion,
  type SaveArtifactRequest,
} from "./core/artifacts.js";
export { type EventCompaction, EventCompactionSchema } from "./core/compaction.js";
export {
  type Content,
  ContentSchema,
  type FunctionCall,
  FunctionCallSchema,
  type FunctionResponse,
  FunctionResponseSchema,
  type Part,
  PartSchema,
  textOf,
  userText,
} from "./core/content.js";
export type {
  EmailReply,
  EmailResult,
  EmailRouteConfig,
  EmailTurn,
  InboundEmail,
  RepliedEmail,
  SenderPolicy,
} from "./core/email.js";
export {
  BatonError,
  type Blame,
  ERROR_CODES,
  type ErrorCode,
  EVENT_ERROR_CODES,
  type EventErrorCode,
  type ModelErrorCode,
  type RequestErrorCode,
} from "./core/errors.js";
export {
  type Event,
  type EventActions,
  EventActionsSchema,
  EventSchema,
  isFinalResponse,
} from "./core/event.js";
export { newFunctionCallId } from "./core/ids.js";
export { DEFAULT_RETRY } from "./core/llm.js";
export {
  MEMORY_SEARCH_LIMIT,
  type MemoryEntry,
  MemoryEntrySchema,
  type MemoryScope,
  type MemoryService,
  memoryTerms,
  type SearchMemoryResponse,
} from "./core/memory.js";
export type {
  Clock,
  CreateSessionRequest,
  Env,
  EventWindow,
  IdSource,
  LlmRequest,
  LlmResponse,
  ModelCallOptions,
  ModelObject,
  ModelPort,
  ModelSpec,
  RetryPolicy,
  RunServices,
  SessionStore,
  ToolDeclaration,
  TraceExport,
  TurnStart,
} from "./core/ports.js";
export {
  type NewReminder,
  PENDING_REMINDERS_KEY,
  REMINDER_LIMITS,
  type Reminder,
  type ReminderStore,
} from "./core/reminder.js";
export type { ScheduleConfig, ScheduledMessage, ScheduleFiring } from "./core/schedule.js";
export { type Session, type SessionKey, SessionSchema } from "./core/session.js";
export {
  EVENT_PAGE_LIMITS,
  type EventPage,
  type EventPageRequest,
  SESSION_PAGE_LIMITS,
  type SessionPage,
  type SessionPageRequest,
} from "./core/session-pages.js";
export type { DoubleTexting, DoubleTextingConfig, WaitingMode } from "./core/session-store.js";
export type {
  HeaderReader,
  OnResult,
  RetryDelays,
  TurnRequest,
  Verdict,
  Verifier,
  VerifyInput,
  WebhookDefinition,
} from "./core/webhook.js";
export { InMemoryMemoryService } from "./memory/in-memory-memory.js";
export type { ModelProvider } from "./models/model-provider.js";
export { type ReplayAppSource, replayApp } from "./replay/replay-app.js";
export { adkReplayPlugin } from "./replay/replay-plugin.js";
export type { AgentNode, TransferPolicy } from "./router/agent-node.js";
export { findAgentToRun } from "./router/find-agent-to-run.js";
export { isTransferable, transferTargets } from "./router/transfer-targets.js";
export { type App, type AppConfig, defineApp } from "./runner/app.js";
export {
  type EventsCompactionConfig,
  type EventsSummarizer,
  llmEventSummarizer,
  type SummarizeContext,
} from "./runner/events-compaction.js";
export type { RunnerOptions, RunRequest } from "./runner/runner.js";
export type { AgentRuntime, RuntimeStep, RuntimeTool, RuntimeTurn } from "./runtimes/agent-runtime.js";
export { type AiSdkRuntimeOptions, aiSdkRuntime } from "./runtimes/ai-sdk-runtime.js";
export { RuntimeAgent, type RuntimeAgentConfig } from "./runtimes/runtime-agent.js";
export { type BatonRunnerOptions, defaultServices, Runner } from "./services/defaults.js";
export { aiSdkModelPort, ModelRegistry } from "./services/model-registry.js";
export { InMemorySessionStore, type InMemorySessionStoreOptions } from "./session/in-memory-store.js";
export { AGENT_NAME_PARAM, TRANSFER_TOOL_NAME } from "./transfer/constants.js";
export { resolveTransfer, type TransferResolution } from "./transfer/resolve-transfer.js";
export { type TransferOffer, transferOffer } from "./transfer/transfer-offer.js";
export { type TransferOutput, transferFromOutput, transferOutput } from "./transfer/transfer-output.js";
export { transferCallPart, transferResponsePart } from "./transfer/transfer-parts.js";
export type { GitHubWebhookPayload } from "./webhooks/github.js";
export type { SlackEventPayload } from "./webhooks/slack.js";
export type { StripeEventPayload } from "./webhooks/stripe.js";
export type { TurnOrigin, TurnStatus } from "./webhooks/turn-record.js";
export { verifiers } from "./webhooks/verifiers.js";
export { type WebhookConfig, type WebhookInput, webhook } from "./webhooks/webhook.js";
