import type { BaseAgent } from "../agents/base-agent.js";
import { LlmAgent } from "../agents/llm-agent.js";
import type { RunPlugin } from "../agents/plugins.js";
import { treeScopes } from "../agents/state-scopes.js";
import { defineEmailRoute, type EmailRoute, type EmailRouteConfig } from "../core/email.js";
import { BatonError } from "../core/errors.js";
import { defineSchedules, type ScheduleConfig, type ScheduleDefinition } from "../core/schedule.js";
import type { DoubleTextingConfig } from "../core/session-store.js";
import type { SharedScope } from "../core/state.js";
import type { WebhookDefinition } from "../core/webhook.js";
import { checkDoubleTexting } from "./double-texting.js";
import { checkCompactionConfig, type EventsCompactionConfig } from "./events-compaction.js";

export interface AppConfig {
  /** The app's name in URLs (`/apps/:app/...`). */
  name: string;
  rootAgent: BaseAgent;
  /**
   * Load at most this many recent events per turn (routing and history then see only them). Off by
   * default, so ADK's full-history behaviour holds; set it for long sessions to bound a turn's cost.
   */
  maxHistoryEvents?: number;
  /** ADK `max_llm_calls`: model calls allowed per invocation. Default 500; 0 disables the limit. */
  maxLlmCalls?: number;
  /** ADK `App.plugins`: hooks that run before every agent's own callbacks (ADK's ReplayPlugin is one). */
  plugins?: readonly RunPlugin[];
  /** Hooks that start turns from signed deliveries, served at `POST /webhooks/:app/:hook` (`webhook()`). */
  webhooks?: readonly WebhookDefinition[];
  /**
   * Cron schedules: each firing of a cron listed in wrangler.toml's `[triggers] crons` runs one queued turn
   * per schedule declared with that cron (docs/triggers.md).
   */
  schedules?: readonly ScheduleConfig[];
  /** Inbound email (the Worker's `email` handler): mail to the route's address starts a turn in its thread's session. */
  email?: EmailRouteConfig;
  /**
   * ADK `events_compaction_config`: after a turn, older events are summarized into a compaction event that
   * prompts read in their place; stored events stay readable. Off by default.
   */
  eventsCompactionConfig?: EventsCompactionConfig;
  /**
   * ADK memory: with `addSessionsAutomatically`, each turn's events go to the user's memory when the turn
   * ends (what ADK apps do with `add_session_to_memory` after a session), so `load_memory` and
   * `preload_memory` find them in the user's later sessions. Off by default.
   */
  memory?: { addSessionsAutomatically?: boolean };
  /**
   * What a message does while a turn runs on its session: `reject` (the default) answers 409
   * `session_busy`; `enqueue` waits and runs as the next turn, in arrival order; `interrupt` stops the
   * running turn (it ends with a stored `TURN_CANCELED` event) and answers the new message; `latest`
   * waits, and a newer message replaces it (409 `message_replaced`, nothing stored); `merge` waits, and
   * the messages that waited together run as one turn with one user event. `{ mode, debounceMs }` makes a
   * waiting mode wait until no message came for `debounceMs` (docs/double-texting.md, decision 047).
   */
  doubleTexting?: DoubleTextingConfig;
}

export interface App extends Readonly<AppConfig> {
  /** Every agent of the tree by name. */
  readonly agents: ReadonlyMap<string, BaseAgent>;
  /** The app's hooks by name. */
  readonly hooks: ReadonlyMap<string, WebhookDefinition>;
  /** The app's schedules by name, checked (`defineSchedules`). */
  readonly schedulesByName: ReadonlyMap<string, ScheduleDefinition>;
  /** The app's email route, checked (`defineEmailRoute`). */
  readonly emailRoute?: EmailRoute;
  /** The shared state scopes some agent of the tree may touch (`treeScopes`); the runner adds its plugins' and the request's. */
  readonly stateScopes: readonly SharedScope[];
}

const APP_NAME = /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/;

/**
 * Declares an app: a named agent tree. Checks that agent names are unique across the tree, since
 * routing and transfer find agents by name.
 * @example
 * export const helpdesk = defineApp({ name: "helpdesk", rootAgent: concierge });
 */
export function defineApp(config: AppConfig): App {
  if (!APP_NAME.test(config.name)) {
    throw new BatonError(
      "invalid_config",
      `App name "${config.name}" must be letters, digits, "_", "-" or ".".`,
    );
  }
  checkDoubleTexting(config.name, config.doubleTexting);
  const agents = new Map<string, BaseAgent>();
  const visit = (agent: BaseAgent): void => {
    if (agents.has(agent.name))
      throw new BatonError(
        "invalid_config",
        `Agent name "${agent.name}" appears twice in app "${config.name}".`,
      );
    agents.set(agent.name, agent);
    // Gemini's built-in tools on another model fail here, at load, as ADK's configuration error does.
    if (agent instanceof LlmAgent) agent.checkToolModels();
    for (const sub of agent.subAgents) visit(sub);
  };
  visit(config.rootAgent);
  const hooks = new Map<string, WebhookDefinition>();
  for (const hook of config.webhooks ?? []) {
    if (hooks.has(hook.name))
      throw new TypeError(`Two webhooks of app "${config.name}" are named "${hook.name}".`);
    hooks.set(hook.name, hook);
  }
  const schedulesByName = defineSchedules(config.name, config.schedules ?? []);
  const emailRoute = config.email ? defineEmailRoute(config.name, config.email) : undefined;
  const compaction = config.eventsCompactionConfig;
  return {
    ...config,
    ...(compaction ? { eventsCompactionConfig: checkCompactionConfig(compaction, config.rootAgent) } : {}),
    agents,
    hooks,
    schedulesByName,
    ...(emailRoute ? { emailRoute } : {}),
    stateScopes: treeScopes(config.rootAgent),
  };
}
