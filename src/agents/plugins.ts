import { SHARED_SCOPES, type SharedScope } from "../core/state.js";
import type { BeforeModelCallback, BeforeToolCallback } from "./callbacks.js";
import type { InvocationContext } from "./invocation-context.js";

/**
 * A runner-wide plugin (ADK `BasePlugin`), the hooks Baton has. A plugin's hook runs before every
 * agent's own callbacks of that kind; the first hook or callback that answers wins, so a plugin that
 * answers skips the agent's callbacks (as ADK's plugin manager does).
 */
export interface RunPlugin {
  readonly name: string;
  beforeModel?: BeforeModelCallback;
  beforeTool?: BeforeToolCallback;
  /**
   * ADK `after_run_callback`: once the invocation's agents have finished without failing. A throw
   * becomes the invocation's error event, authored by the agent that ran.
   */
  afterRun?: (ctx: InvocationContext) => void | Promise<void>;
  /**
   * The shared state scopes (`app:`, `user:` keys) its hooks may read or write. Left out, both: every turn
   * then reads both scopes' Durable Objects (docs/scaling.md).
   */
  readonly stateScopes?: readonly SharedScope[];
}

/** A plugin's shared scopes: what it declares, or both (its hooks see the whole state). */
export const pluginScopes = (plugin: RunPlugin): readonly SharedScope[] =>
  plugin.stateScopes ?? SHARED_SCOPES;

type Hook = "beforeModel" | "beforeTool";

/** The invocation's plugin hooks of one kind, in plugin order. */
export function pluginHooks<K extends Hook>(ctx: InvocationContext, hook: K): NonNullable<RunPlugin[K]>[] {
  return (ctx.runConfig.plugins ?? []).flatMap((plugin) => {
    const found = plugin[hook];
    return found === undefined ? [] : [found];
  });
}

/** Plugin hooks first, then the agent's own callbacks (one or a list). */
export const withPlugins = <F>(plugins: readonly F[], own: F | readonly F[] | undefined): readonly F[] => [
  ...plugins,
  ...(own === undefined ? [] : Array.isArray(own) ? own : [own]),
];
