import { functionResponsesOf } from "../core/content.js";
import { BatonError } from "../core/errors.js";
import type { Event, Route } from "../core/event.js";
import { directChildName } from "./node-path.js";
import { REQUEST_INPUT } from "./request-input.js";

/** What the stored events say about one run of a node. */
export interface PriorRun {
  output?: unknown;
  route?: Route | undefined;
  branch?: string | undefined;
  input?: unknown;
  hasInput: boolean;
  interruptIds: Set<string>;
  /** Answers to its interrupts found in later user events. */
  resolved: Map<string, unknown>;
  /** The invocation of its newest event. */
  invocationId: string;
}

/** Whether a run ended: it has an output, a route, or waits on interrupts. */
export const isClosed = (run: PriorRun): boolean =>
  run.output !== undefined || run.route !== undefined || run.interruptIds.size > 0;

/** Whether a run can be handed back as finished: it produced something and nothing of it waits. */
export const isFinished = (run: PriorRun): boolean =>
  (run.output !== undefined || run.route !== undefined) &&
  [...run.interruptIds].every((id) => run.resolved.has(id));

/**
 * An event that pauses its run for an answer from outside: ADK's user-input calls (`adk_request_input`,
 * confirmations, credentials) and, in Baton, any long-running call (a remote agent's `input-required`, a
 * long-running tool), so a workflow paused on one resumes where it stopped.
 */
const raisesInterrupt = (event: Event): boolean => (event.longRunningToolIds?.length ?? 0) > 0;

/**
 * The events a workflow run rebuilds its nodes from (ADK `eventsForCurrentRun`): this invocation's, and
 * those of the workflow invocations right before it that paused for the user, so a resumed workflow picks up
 * where it stopped. Read newest first: it stops at the first earlier workflow invocation that did not pause.
 */
export function eventsForCurrentRun(events: readonly Event[], invocationId: string): readonly Event[] {
  let boundary = events.length;
  let group: { invocationId: string; start: number; paused: boolean } | undefined;
  for (let i = events.length - 1; i >= 0; i--) {
    const event = events[i];
    if (!event) continue;
    if (event.invocationId === invocationId) {
      boundary = i;
      continue;
    }
    if (!event.nodeInfo?.path) continue;
    if (group && group.invocationId !== event.invocationId) {
      if (!group.paused) break;
      boundary = Math.min(boundary, group.start);
      group = undefined;
    }
    group = group ?? { invocationId: event.invocationId, start: i, paused: false };
    group.start = i;
    if (raisesInterrupt(event)) group.paused = true;
  }
  if (group?.paused) boundary = Math.min(boundary, group.start);
  return boundary === 0 ? events : events.slice(boundary);
}

/**
 * The user's answers to the interrupts raised in `events`, by interrupt id (ADK `resolvedInterruptResponses`):
 * `{result: x}` is read as `x`. A newest answer to an `adk_request_input` that is not open is refused.
 */
export function resolvedResponses(events: readonly Event[]): Map<string, unknown> {
  const newestUser = events.findLast((e) => e.author === "user");
  const raised = new Set<string>();
  const open = new Set<string>();
  const resolved = new Map<string, unknown>();
  for (const event of events) {
    if (event.author !== "user") {
      for (const id of event.longRunningToolIds ?? []) {
        raised.add(id);
        open.add(id);
      }
      continue;
    }
    for (const response of functionResponsesOf(event.content)) {
      const id = response.id;
      if (id === undefined) continue;
      if (!open.has(id)) {
        if (response.name === REQUEST_INPUT && event === newestUser)
          throw unroutable(id, raised.has(id), open);
        continue;
      }
      open.delete(id);
      resolved.set(id, answerOf(response.response));
    }
  }
  return resolved;
}

function unroutable(id: string, answered: boolean, open: ReadonlySet<string>): BatonError {
  const waiting =
    open.size > 0
      ? `Still waiting: ${[...open].map((o) => `'${o}'`).join(", ")}.`
      : "Nothing waits for an answer.";
  const what = answered
    ? `Interrupt '${id}' has already been answered, so this reply resolves nothing.`
    : `The reply carries interrupt id '${id}', which matches no interrupt this run raised.`;
  // No node failed (`nodePath: ""`): the refused reply leaves the paused run as it was, to be answered again.
  return new BatonError("NODE_ERROR", `${what} ${waiting}`, { nodePath: "" });
}

/** An answer as the node's output: `{result: x}` is `x` (a JSON string parsed), anything else as it is. */
export function answerOf(response: Record<string, unknown>): unknown {
  const keys = Object.keys(response);
  if (keys.length !== 1 || keys[0] !== "result") return response;
  const value = response.result;
  if (typeof value !== "string") return value;
  try {
    return JSON.parse(value);
  } catch {
    return value; // Plain text: the answer as given.
  }
}

/** Runs of the direct children of `parentPath` in `events`, by node name, oldest first. */
export const childRuns = (events: readonly Event[], parentPath: string): Map<string, PriorRun[]> =>
  runs(events, (e) => (e.nodeInfo?.path ? directChildName(e.nodeInfo.path, parentPath) : undefined));

/** Runs by full node path (what `ctx.runNode` children are found by). */
export const runsByPath = (events: readonly Event[]): Map<string, PriorRun[]> =>
  runs(events, (e) => e.nodeInfo?.path);

function runs(events: readonly Event[], keyOf: (e: Event) => string | undefined): Map<string, PriorRun[]> {
  const byKey = new Map<string, PriorRun[]>();
  const owners = new Map<string, PriorRun>();
  const answers = resolvedResponses(events);
  for (const event of events) {
    if (event.author === "user") {
      for (const r of functionResponsesOf(event.content)) {
        const owner = r.id === undefined ? undefined : owners.get(r.id);
        if (owner && r.id !== undefined && answers.has(r.id)) owner.resolved.set(r.id, answers.get(r.id));
      }
      if (!event.nodeInfo?.path) continue;
    }
    const key = keyOf(event);
    if (key === undefined) continue;
    let list = byKey.get(key);
    if (!list) {
      list = [];
      byKey.set(key, list);
    }
    let run = list.at(-1);
    if (!run || isClosed(run)) {
      run = {
        hasInput: false,
        interruptIds: new Set(),
        resolved: new Map(),
        invocationId: event.invocationId,
      };
      list.push(run);
    }
    run.invocationId = event.invocationId;
    if (event.output !== undefined) {
      run.output = event.output;
      run.branch = event.branch;
    }
    if (event.actions.route !== undefined) run.route = event.actions.route;
    for (const id of event.longRunningToolIds ?? []) {
      run.interruptIds.add(id);
      owners.set(id, run);
    }
    const state = event.actions.agentState;
    if (state && "input" in state) {
      run.input = state.input;
      run.hasInput = true;
    }
  }
  return byKey;
}
