import type { InvocationContext } from "../agents/invocation-context.js";
import { writeOutputKey } from "../agents/output-key.js";
import { confirmationRequestEvent } from "../agents/tool-confirmation.js";
import { type CallOutcome, responseEvent } from "../agents/tool-execution.js";
import type { FunctionCall, Part } from "../core/content.js";
import type { Event } from "../core/event.js";
import { newFunctionCallId } from "../core/ids.js";
import type { StateMap } from "../core/state.js";
import type { RuntimeStep } from "./agent-runtime.js";
import type { TurnRecorder } from "./turn-recorder.js";

type IdentifiedCall = FunctionCall & { id: string };

/**
 * One step of a foreign loop as ADK events, in ADK's order (ADK-SEMANTICS §3.4): the model event with
 * its text and calls, a confirmation request if a call asked for one, then the function-response event.
 * A step that transferred keeps only its calls: text written beside a transfer is router text and is
 * dropped. `pending` is state written before the step (the model callbacks), stored on its first event.
 */
export function stepEvents(
  ctx: InvocationContext,
  step: RuntimeStep,
  recorder: TurnRecorder,
  options: { outputKey: string | undefined; pending: StateMap },
): Event[] {
  const parts = step.parts.map(
    (p): Part =>
      p.functionCall && !p.functionCall.id
        ? { ...p, functionCall: { ...p.functionCall, id: newFunctionCallId(ctx.services.ids) } }
        : p,
  );
  const calls = parts.flatMap((p): IdentifiedCall[] =>
    p.functionCall?.id ? [{ ...p.functionCall, id: p.functionCall.id }] : [],
  );
  const outcomes: CallOutcome[] = calls.map((call) => recorder.outcomeOf(call, step));
  const transferred = outcomes.some((o) => o.part !== undefined && o.ctx.actions.transferToAgent);
  const waiting = calls.filter((_, i) => outcomes[i]?.part === undefined).map((c) => c.id);
  const shown = transferred ? parts.filter((p) => p.functionCall) : parts;
  const events: Event[] = [];
  if (shown.length > 0 || step.errorMessage !== undefined) {
    const model = ctx.newEvent({
      ...(shown.length > 0 ? { content: { role: "model", parts: shown } } : {}),
      ...(step.finishReason === undefined ? {} : { finishReason: step.finishReason }),
      ...(step.usageMetadata === undefined ? {} : { usageMetadata: step.usageMetadata }),
      ...(step.errorMessage === undefined
        ? {}
        : { errorCode: "MODEL_ERROR", errorMessage: step.errorMessage }),
      ...(waiting.length > 0 ? { longRunningToolIds: waiting } : {}),
      actions: { stateDelta: takeAll(options.pending) },
    });
    writeOutputKey(options.outputKey, model);
    events.push(model);
  }
  const response = responseEvent(ctx, outcomes);
  if (response) {
    const request = confirmationRequestEvent(ctx, calls, response);
    if (request) events.push(request);
    events.push(response);
  }
  return events;
}

/** Empties `state` into a new object: pending writes go out once, on the first event that carries them. */
function takeAll(state: StateMap): StateMap {
  const out = { ...state };
  for (const key of Object.keys(state)) delete state[key];
  return out;
}
