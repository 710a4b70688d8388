import type { AgentCard } from "@a2a-js/sdk";
import type { RunServices } from "../../core/ports.js";
import type { SessionStore } from "../../core/session-store.js";
import type { TaskStore } from "../../core/task-store.js";
import type { TurnTrace } from "../../core/trace.js";
import type { App } from "../../runner/app.js";
import type { PushPolicy } from "./push-policy.js";

/** What the A2A server needs for one request to one app. */
export interface A2aServerDeps {
  app: App;
  card: AgentCard;
  sessionStore: SessionStore;
  taskStore: TaskStore;
  services: RunServices;
  /** The Baton user a context's session belongs to. */
  userIdFor(contextId: string): string;
  /** `ListTasks` shows only this user's tasks (an end user's own); unset, every task of the app. */
  listUserId?: string;
  /**
   * Push notifications are on (the card says so, the config methods work) and may go where this allows;
   * unset, they are off (`-32003`). The task store delivers them (a queue on Workers).
   */
  push?: PushPolicy;
  /** Keeps a turn running after the response is sent (the Worker's `ctx.waitUntil`). */
  waitUntil(work: Promise<unknown>): void;
  /** Gets each turn's trace once it is stored (the Worker's OTLP export). */
  onTrace?: (trace: TurnTrace) => void;
}
