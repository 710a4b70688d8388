import { applyCompactions, hasCompaction } from "../core/compaction.js";
import type { Content, Part } from "../core/content.js";
import { type ContentLog, readFromLog } from "../core/content-log.js";
import type { Event } from "../core/event.js";
import { frozenWithMemo, hasMemo, memoized } from "../core/memo.js";
import { withoutRewound } from "../router/newest-first.js";
import { TRANSFER_TOOL_NAME } from "../transfer/constants.js";
import { inScope, onBranch } from "./branch.js";
import {
  callIdsOf,
  latestResponseAfterItsCall,
  responseIdsOf,
  responsesAfterTheirCalls,
} from "./function-response-order.js";
import { pyRepr } from "./py-repr.js";

export type IncludeContents = "default" | "none";

/** Framework calls that never reach a model (ADK `_is_auth_event`, `_is_request_confirmation_event`). */
const FRAMEWORK_CALLS = new Set(["adk_request_credential", "adk_request_confirmation"]);

const isVisiblePart = (p: Part): boolean =>
  !p.thought &&
  (p.text !== undefined ||
    p.functionCall !== undefined ||
    p.functionResponse !== undefined ||
    p.inlineData !== undefined ||
    p.fileData !== undefined ||
    p.executableCode !== undefined ||
    p.codeExecutionResult !== undefined);

/**
 * A content's visible parts. An index loop, not `filter`: stored events are frozen, and V8's array
 * builtins are several times slower on frozen arrays (this runs for every history message). When all are
 * visible (the usual case) a frozen array is returned as it is; a copy has exactly its length, since an
 * array grown by `push` keeps room for 17 items and what a stored event gives the history lives as long as the event.
 */
function visibleParts(parts: Part[]): Part[] {
  let out: Part[] | undefined;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    const visible = part !== undefined && isVisiblePart(part);
    if (out === undefined) {
      if (!visible) out = parts.slice(0, i);
    } else if (visible) out.push(part);
  }
  if (out !== undefined) return out.slice();
  return Object.isFrozen(parts) ? parts : parts.slice();
}

const isFrameworkPart = (p: Part): boolean =>
  (p.functionCall !== undefined && FRAMEWORK_CALLS.has(p.functionCall.name)) ||
  (p.functionResponse !== undefined && FRAMEWORK_CALLS.has(p.functionResponse.name));

/** Whether any part passes; an index loop for the reason `visibleParts` gives. */
function anyPart(parts: readonly Part[], test: (p: Part) => boolean): boolean {
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i];
    if (part !== undefined && test(part)) return true;
  }
  return false;
}

const isTransferEvent = (e: Event): boolean =>
  Boolean(e.actions.transferToAgent) ||
  (e.content?.parts ?? []).some((p) => p.functionCall?.name === TRANSFER_TOOL_NAME);

/** The first part of every message that relays another agent's event (ADK's wording). */
export const RELAY_PREAMBLE = "For context:";

/** The `errorCode` of a remote task that ended `failed` (ADK-SEMANTICS §5.7). */
const A2A_TASK_FAILED = "A2A_TASK_FAILED";

/**
 * Another agent's event as the current agent reads it: user-role "For context:" text (ADK-SEMANTICS §3.6).
 * A failed remote task reads as a failure note, never as something the remote agent said (§5.7).
 */
export function reframe(event: Event): Content | undefined {
  if (event.errorCode === A2A_TASK_FAILED) {
    const note = `[${event.author}] failed: ${event.errorMessage ?? "Remote A2A task failed"}`;
    return { role: "user", parts: [{ text: RELAY_PREAMBLE }, { text: note }] };
  }
  const parts: Part[] = [];
  for (const p of event.content?.parts ?? []) {
    if (p.thought) continue;
    if (p.text !== undefined) parts.push({ text: `[${event.author}] said: ${p.text}` });
    else if (p.functionCall) {
      parts.push({
        text: `[${event.author}] called tool \`${p.functionCall.name}\` with parameters: ${pyRepr(p.functionCall.args ?? {})}`,
      });
    } else if (p.functionResponse) {
      parts.push({
        text: `[${event.author}] \`${p.functionResponse.name}\` tool returned result: ${pyRepr(p.functionResponse.response)}`,
      });
    } else parts.push(p);
  }
  return parts.length === 0 ? undefined : { role: "user", parts: [{ text: RELAY_PREAMBLE }, ...parts] };
}

/**
 * What one stored event gives the history, whoever reads it: whether it can reach a model at all, its
 * content as its own author (or the user) sees it, and as another agent reads it (`reframe`). Each is kept
 * in the event's memo slot (`core/memo.ts`) under a key of its own, not in an object of its own (one object
 * fewer kept per stored event), and shared, frozen, by every later request; an event without a slot (a
 * custom store's) is viewed afresh each time.
 */
const REACHES_MODEL = Symbol("reaches a model");
const OWN_CONTENT = Symbol("own content");
const FRAMED_CONTENT = Symbol("framed content");

const reachesModelNow = (e: Event): boolean =>
  e.content?.role !== undefined &&
  anyPart(e.content.parts ?? [], isVisiblePart) &&
  !anyPart(e.content.parts ?? [], isFrameworkPart);

const reachesModel = (e: Event): boolean => memoized(e, REACHES_MODEL, reachesModelNow);

/** A content kept with its event is frozen (every later request shares it) and memoizes in turn (its prompt). */
const shared = (e: Event, content: Content): Content => (hasMemo(e) ? frozenWithMemo(content) : content);

/** The event's content as its author (or the user) gave it, visible parts only. */
const ownContent = (e: Event): Content | undefined => memoized(e, OWN_CONTENT, ownContentNow);

const ownContentNow = (e: Event): Content | undefined =>
  e.content && shared(e, { role: e.content.role, parts: visibleParts(e.content.parts ?? []) });

/** The event as another agent reads it ("For context:"), or `undefined` when nothing is left. */
const framedContent = (e: Event): Content | undefined => memoized(e, FRAMED_CONTENT, framedContentNow);

function framedContentNow(e: Event): Content | undefined {
  const framed = reframe(e);
  return framed && shared(e, framed);
}

/** How an agent reads the history: its name, its branch, and whether it sees past turns. */
export interface HistoryOptions {
  includeContents: IncludeContents;
  branch?: string | undefined;
  /** The conversation scope the agent runs in (ADK 2.x `isolation_scope`): it sees no other scope's events. */
  isolationScope?: string | undefined;
}

/**
 * The contents an agent's model sees: the session's events filtered and re-framed (ADK `_get_contents`);
 * a compaction's summary stands in for the events it covers (`applyCompactions`).
 * With `includeContents: "none"` only the current turn: from the newest event by the user or another
 * agent that is not a transfer event. Function responses are then put right after their calls, a late
 * answer to a long-running call replacing its pending response and what came between.
 *
 * The contents of stored (frozen) events are built once and shared, frozen, by every request that reads
 * them; whoever hands a request to code that may change it makes a copy first (`editableContents`). What
 * a session's history gave an agent is kept too (`extendHistory`), so a later request pays for its new
 * events only.
 */
export function buildContents(
  events: readonly Event[],
  agentName: string,
  options: HistoryOptions,
): Content[] {
  const first = events[0];
  if (options.includeContents === "none" || first === undefined || !hasMemo(first) || windows.has(events))
    return fullHistory(events, agentName, options).contents;
  const histories = memoized(first, HISTORIES, () => new Map<string, KeptHistory>());
  const key = `${agentName}\u0000${options.branch ?? ""}\u0000${options.isolationScope ?? ""}`;
  const kept = histories.get(key);
  if (kept && extendHistory(kept, events, agentName, options.branch, options.isolationScope))
    return readFromLog(kept.contents.slice(), kept);
  const built = fullHistory(events, agentName, options);
  if (built.kept === undefined) {
    histories.delete(key);
    return built.contents;
  }
  histories.set(key, built.kept);
  return readFromLog(built.contents, built.kept);
}

/** Event arrays that hold only the newest events of a longer session (`markWindowed`). */
const windows = new WeakSet<readonly Event[]>();

/**
 * Marks `events` as a window onto the newest events of a session that may hold more (an app's
 * `maxHistoryEvents`): `buildContents` then reads it whole and keeps nothing. What it keeps lives in the
 * memo slot of the array's first event, and a window's first event moves on with every turn, so what was
 * kept would never be read again, yet would live as long as that stored event (~2.6 KB a turn).
 */
export function markWindowed(events: readonly Event[]): void {
  windows.add(events);
}

/**
 * What a session's history gave one agent on one branch, kept in the memo slot of the session's first
 * event: the events read so far (their count and the last one), the built contents, and the function
 * response ids among them; it is the `ContentLog` its requests' contents are read from, so the prompt
 * built from it is extended the same way (`models/convert.ts`). Kept only while the contents are the
 * filtered events in order, with nothing rearranged, so that new events that only append keep it true.
 */
interface KeptHistory extends ContentLog {
  count: number;
  last: Event;
  readonly contents: Content[];
  readonly answered: Set<string>;
}

const HISTORIES = Symbol("kept histories");

/** The visible content of one event for `agentName`, or `undefined`. */
function contentFor(
  e: Event,
  agentName: string,
  branch: string | undefined,
  scope: string | undefined,
): Content | undefined {
  if (!reachesModel(e) || !onBranch(e.branch, branch) || !inScope(e.isolationScope, scope)) return undefined;
  return e.author === agentName || e.author === "user" ? ownContent(e) : framedContent(e);
}

/**
 * Adds the events after `kept.last` to `kept` when that is what a full pass would give: the log grew by
 * appends only (the same object at `kept.count - 1`), no new event rewinds or compacts, and every new
 * function response answers calls of the content right before it, none answered before. Otherwise
 * `false`, and `kept` is left as it was.
 */
function extendHistory(
  kept: KeptHistory,
  events: readonly Event[],
  agentName: string,
  branch: string | undefined,
  scope: string | undefined,
): boolean {
  if (events.length < kept.count || events[kept.count - 1] !== kept.last) return false;
  const added: Content[] = [];
  const answered: string[] = [];
  let previous = kept.contents.at(-1);
  for (let i = kept.count; i < events.length; i++) {
    const e = events[i];
    if (e === undefined || e.actions.rewindBeforeInvocationId || e.actions.compaction !== undefined)
      return false;
    const content = contentFor(e, agentName, branch, scope);
    if (content === undefined) continue;
    const responses = responseIdsOf(content);
    if (responses.length > 0) {
      const calls = callIdsOf(previous);
      for (const id of responses)
        if (!calls.includes(id) || kept.answered.has(id) || answered.includes(id)) return false;
      answered.push(...responses);
    }
    added.push(content);
    previous = content;
  }
  for (const content of added) kept.contents.push(content);
  for (const id of answered) kept.answered.add(id);
  kept.count = events.length;
  kept.last = events[events.length - 1] ?? kept.last;
  return true;
}

/** One whole pass over the history, and what to keep of it when nothing had to be rearranged. */
function fullHistory(
  events: readonly Event[],
  agentName: string,
  options: HistoryOptions,
): { contents: Content[]; kept?: KeptHistory } {
  // Rewound ranges are left out (PYX), then compacted ranges give way to their summaries (ADK). One pass
  // with index loops: this runs on every model call that cannot extend a kept history.
  const unwound = withoutRewound(events);
  const compacted = hasCompaction(unwound);
  const visible = compacted ? applyCompactions(unwound, agentName) : unwound;
  let start = 0;
  if (options.includeContents === "none") {
    start = visible.length;
    for (let i = visible.length - 1; i >= 0; i--) {
      const e = visible[i];
      if (
        e &&
        e.author !== agentName &&
        reachesModel(e) &&
        onBranch(e.branch, options.branch) &&
        inScope(e.isolationScope, options.isolationScope) &&
        !isTransferEvent(e)
      ) {
        start = i;
        break;
      }
    }
  }
  const contents: Content[] = [];
  for (let i = start; i < visible.length; i++) {
    const e = visible[i];
    const content = e && contentFor(e, agentName, options.branch, options.isolationScope);
    if (content) contents.push(content);
  }
  const arranged = responsesAfterTheirCalls(latestResponseAfterItsCall(contents));
  const last = events.at(-1);
  // Only a whole, unrearranged history is kept: "none" reads from the current turn, not from the first event.
  const keepable = options.includeContents === "default" && !compacted && sameContents(arranged, contents);
  if (!keepable || last === undefined) return { contents: arranged };
  const answered = new Set<string>();
  for (const content of contents) for (const id of responseIdsOf(content)) answered.add(id);
  const kept = { count: events.length, last, contents: contents.slice(), answered, derived: new Map() };
  return { contents: arranged, kept };
}

/** Whether the rearrangement left the contents as they were (the same contents, in the same order). */
function sameContents(a: readonly Content[], b: readonly Content[]): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

/**
 * A request's contents as a deep copy its holder may change (ADK's before-model callbacks edit
 * `llm_request.contents` in place); the built ones are shared with later requests and frozen.
 */
export const editableContents = (contents: readonly Content[]): Content[] => structuredClone([...contents]);
