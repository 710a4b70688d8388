import { BatonError } from "../core/errors.js";
import { type SharedScope, scopesOfKeys } from "../core/state.js";
import type { State } from "./state.js";

/** `{name}`, `{name?}`, and the scoped forms `{app:name}`, `{user:name}`, `{temp:name}`. */
const PLACEHOLDER = /\{((?:app:|user:|temp:)?[A-Za-z_][A-Za-z0-9_]*)(\?)?\}/g;

const render = (value: unknown): string => (typeof value === "string" ? value : JSON.stringify(value));

/**
 * Fills `{var}` placeholders from state (ADK `inject_session_state`). A missing `{var}` fails the agent
 * with a clear message; a missing `{var?}` becomes an empty string. Braces around anything that is not a
 * name (JSON examples, say) are left alone.
 */
export function fillInstruction(template: string, state: State): string {
  // Most instructions have no placeholder: no regular expression run (or closure) for them.
  if (!template.includes("{")) return template;
  return template.replace(PLACEHOLDER, (_match: string, name: string, optional: string | undefined) => {
    if (state.has(name)) return render(state.get(name));
    if (optional) return "";
    throw new BatonError("AGENT_ERROR", `Context variable not found: \`${name}\`.`);
  });
}

/** The shared scopes whose keys a template's placeholders read (`{app:x}`, `{user:y?}`). */
export function templateScopes(template: string): SharedScope[] {
  return scopesOfKeys([...template.matchAll(PLACEHOLDER)].map((match) => match[1] ?? ""));
}
