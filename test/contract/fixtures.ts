import { beforeEach, expect } from "vitest";
import { userText } from "../../src/core/content.js";
import type { RequestErrorCode } from "../../src/core/errors.js";
import { createEvent, type Event, type NewEvent } from "../../src/core/event.js";
import type { SessionKey } from "../../src/core/session.js";
import type { SessionStore } from "../../src/core/session-store.js";
import type { StateMap } from "../../src/core/state.js";

/** A store under test and the means to move its lease clock. */
export interface SessionStoreHarness {
  store: SessionStore;
  leaseTtlMs: number;
  /** Lets `ms` pass for this session's lease, as if the clock moved on with no append. */
  elapse(key: SessionKey, ms: number): Promise<void>;
}

export type HarnessSetup = () => SessionStoreHarness | Promise<SessionStoreHarness>;

let apps = 0;
/** A fresh app per test, so app, user and session state never leak from one test to the next. */
export const freshApp = (): string => `app-${++apps}-${crypto.randomUUID().slice(0, 8)}`;

let clockMs = 1_767_225_600_000;
const env = { ids: { uuid: () => crypto.randomUUID() }, clock: { now: () => (clockMs += 1000) } };

export interface EventFields extends Partial<Omit<NewEvent, "actions">> {
  text?: string;
  stateDelta?: StateMap;
  timestamp?: number;
}

/** An event a second after the previous one (unless `timestamp` is given), by `user` unless `author` is. */
export function makeEvent({ text, stateDelta, timestamp, ...fields }: EventFields = {}): Event {
  const event = createEvent(
    {
      invocationId: "e-contract",
      author: "user",
      ...(text === undefined ? {} : { content: userText(text) }),
      ...(stateDelta === undefined ? {} : { actions: { stateDelta } }),
      ...fields,
    },
    env,
  );
  return timestamp === undefined ? event : { ...event, timestamp };
}

/** Asserts that `promise` rejects with a `BatonError` of this code. */
export async function expectRefusal(promise: Promise<unknown>, code: RequestErrorCode): Promise<void> {
  await expect(promise).rejects.toMatchObject({ name: "BatonError", code });
}

export const idsOf = (events: readonly Event[]): string[] => events.map((e) => e.id);

/** The per-test context: a fresh harness and a fresh app, set up before each test of the calling suite. */
export interface ContractContext {
  readonly harness: SessionStoreHarness;
  readonly store: SessionStore;
  readonly app: string;
  key(sessionId?: string, userId?: string): SessionKey;
  /** Creates a session (default `s1` of `u1`) and returns its key. */
  session(sessionId?: string, userId?: string, state?: StateMap): Promise<SessionKey>;
}

export function useContract(setup: HarnessSetup): ContractContext {
  let current: { harness: SessionStoreHarness; app: string } | undefined;
  beforeEach(async () => {
    current = { harness: await setup(), app: freshApp() };
  });
  const now = () => {
    if (!current) throw new Error("the contract context is only available inside a test");
    return current;
  };
  const context: ContractContext = {
    get harness() {
      return now().harness;
    },
    get store() {
      return now().harness.store;
    },
    get app() {
      return now().app;
    },
    key: (sessionId = "s1", userId = "u1") => ({ appName: now().app, userId, sessionId }),
    async session(sessionId = "s1", userId = "u1", state = {}) {
      const key = context.key(sessionId, userId);
      await context.store.createSession({ ...key, state });
      return key;
    },
  };
  return context;
}
