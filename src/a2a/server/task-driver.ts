import { BatonError } from "../../core/errors.js";
import type { A2aServerDeps } from "./server-deps.js";
import { encodeUpdate } from "./task-json.js";
import type { Step } from "./task-projection.js";
import type { StartedTask } from "./turn-start.js";

/**
 * Runs a started task's turn to its end, storing each update with the new snapshot in the session's
 * object (partial text is only published). It never throws: a turn that breaks ends the task `failed`; a
 * turn stopped by its session (its last event the store's `TURN_CANCELED` record) ends it `canceled`, which
 * a task closed by its own `tasks/cancel` already is; a refused append of a canceled turn ends quietly.
 */
export async function driveTask(deps: A2aServerDeps, started: StartedTask): Promise<void> {
  const { key, projection, events } = started;
  const apply = async (step: Step): Promise<void> => {
    const update = encodeUpdate(step.update);
    if (!step.store) return deps.taskStore.publishTask(key, update);
    await deps.taskStore.writeTask(key, { snapshot: step.snapshot, phase: step.phase, update });
  };
  try {
    if (started.isNew) await apply(projection.started());
    for await (const event of events) {
      // A stopped turn: the task ends canceled (a task its own tasks/cancel closed refuses the write).
      if (event.errorCode === "TURN_CANCELED") {
        await apply(projection.stopped(stopText(event)));
        return;
      }
      for (const step of projection.event(event)) await apply(step);
    }
    for (const step of projection.finish()) await apply(step);
  } catch (error) {
    if (error instanceof BatonError && error.code === "turn_canceled") return;
    const reason = error instanceof Error ? error.message : String(error);
    deps.services.log(`A2A task ${key.taskId} broke: ${reason}`);
    await apply(projection.broken(`The turn could not be completed: ${reason}`)).catch((written: unknown) =>
      deps.services.log(`A2A task ${key.taskId} could not be marked failed: ${String(written)}`),
    );
  }
}

const stopText = (event: { errorMessage?: string | undefined }): string =>
  event.errorMessage ?? "The turn was canceled.";
