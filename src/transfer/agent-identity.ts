import type { AgentNode } from "../router/agent-node.js";

/*
 * ADK's identity processor: every agent states its own name and description, which the transfer rules
 * ("answer it if you are the best according to your description") refer to. ADK Python's exact text.
 */

const NAME_OPENING = 'You are an agent. Your internal name is "';
const DESCRIPTION_OPENING = ' The description about you is "';

/** The identity line of `agent`; the description sentence only when it has one. */
export const identityInstruction = (agent: Pick<AgentNode, "name" | "description">): string =>
  `${NAME_OPENING}${agent.name}".` +
  (agent.description ? `${DESCRIPTION_OPENING}${agent.description}".` : "");

/** The name and description an `identityInstruction` line in `text` states; the inverse of it. */
export function readIdentity(text: string): { name: string; description: string } | undefined {
  const line = text.split("\n").find((l) => l.startsWith(NAME_OPENING));
  if (line === undefined) return undefined;
  const rest = line.slice(NAME_OPENING.length);
  const split = rest.indexOf(`".${DESCRIPTION_OPENING}`);
  if (split < 0) return { name: rest.replace(/"\.$/, ""), description: "" };
  const description = rest.slice(split + 2 + DESCRIPTION_OPENING.length).replace(/"\.$/, "");
  return { name: rest.slice(0, split), description };
}
