import type { AgentConfigRegistry } from "./agent-config-registry.js";
import { AgentConfigError, configMessage } from "./config-error.js";

/** The registry's callback lists. */
export type CallbackKind = keyof Omit<AgentConfigRegistry, "tools">;
/** The YAML fields that name callbacks. */
export type CallbackField = keyof typeof CALLBACK_FIELDS;

/** The registry's list each YAML callback field reads. */
export const CALLBACK_FIELDS = {
  before_agent_callbacks: "agentCallbacks",
  after_agent_callbacks: "agentCallbacks",
  before_model_callbacks: "beforeModel",
  after_model_callbacks: "afterModel",
  before_tool_callbacks: "beforeTool",
  after_tool_callbacks: "afterTool",
} as const satisfies Record<string, CallbackKind>;

const listed = (names: readonly string[]): string => (names.length === 0 ? "(none)" : names.join(", "));

/**
 * The registered callbacks a YAML callback list names, in order; `undefined` for an absent list. A
 * name the registry lacks throws, naming the file, the field and the registered names of that kind.
 */
export function resolveCallbacks<T>(
  registered: Readonly<Record<string, T>> | undefined,
  kind: CallbackKind,
  refs: readonly { name: string }[] | undefined,
  file: string,
  field: string,
): T[] | undefined {
  if (refs === undefined) return undefined;
  const known = registered ?? {};
  return refs.map(({ name }, i) => {
    const callback = Object.hasOwn(known, name) ? known[name] : undefined;
    if (callback === undefined) {
      throw new AgentConfigError(
        configMessage(
          file,
          `${field}[${i}].name`,
          `no callback "${name}" in the registry's ${kind}; registered: ${listed(Object.keys(known))}`,
        ),
      );
    }
    return callback;
  });
}
