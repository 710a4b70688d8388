import type { RunServices } from "../core/ports.js";
import type { Session } from "../core/session.js";

/**
 * Adds one turn's stored events to the user's memory (`App.memory.addSessionsAutomatically`): only that
 * invocation's, since the earlier turns were added when they ended. A memory store that fails costs the
 * turn nothing: it is logged, and the events stay in the session for a later `PATCH …/memory`.
 */
export async function rememberTurn(
  session: Session,
  invocationId: string,
  services: RunServices,
): Promise<void> {
  const memory = services.memory;
  if (!memory) {
    services.log(`App "${session.appName}" adds sessions to memory, but no memory service is configured.`);
    return;
  }
  const events = session.events.filter((event) => event.invocationId === invocationId);
  try {
    await memory.addSessionToMemory({ ...session, events });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    services.log(`Adding turn ${invocationId} of session ${session.id} to memory failed: ${reason}`);
  }
}
