import { beforeEach, describe, expect, it } from "vitest";
import type { SessionKey } from "../../src/core/session.js";
import type { SessionStore } from "../../src/core/session-store.js";
import {
  MAX_PUSH_CONFIGS_PER_TASK,
  type TaskFeedEntry,
  type TaskKey,
  type TaskPhase,
  type TaskStore,
} from "../../src/core/task-store.js";
import { expectRefusal, freshApp, makeEvent } from "./fixtures.js";

/** A store that keeps sessions and their tasks (the cancel flag spans both). */
export type TaskStoreHarness = () => SessionStore & TaskStore;

const write = (n: number, phase: TaskPhase = "active") => ({ snapshot: { n }, phase, update: { n } });

/** Reads a feed to its end. */
async function drain(feed: AsyncGenerator<TaskFeedEntry> | null): Promise<TaskFeedEntry[]> {
  const entries: TaskFeedEntry[] = [];
  if (feed) for await (const entry of feed) entries.push(entry);
  return entries;
}

/**
 * The `TaskStore` contract: A2A tasks beside the session's events, with one sequence per task, terminal
 * tasks closed to writes, optimistic concurrency for a second writer, cancel flags that stop the turn's
 * appends, and feeds that start from a snapshot and miss or repeat nothing after it.
 */
export function describeTaskStoreContract(label: string, setup: TaskStoreHarness): void {
  describe(`TaskStore contract: ${label}`, () => {
    let store: SessionStore & TaskStore;
    let session: SessionKey;
    let key: TaskKey;
    beforeEach(async () => {
      store = setup();
      session = { appName: freshApp(), userId: "u1", sessionId: crypto.randomUUID() };
      key = { ...session, taskId: `t-${crypto.randomUUID()}` };
    });

    it("opens a task only in an existing session, and reads it back with seq 1", async () => {
      expect(await store.openTask(key, "e-1", write(1))).toEqual({ ok: false, reason: "missing" });
      expect(await store.getTask(key)).toBeNull();
      await store.createSession(session);
      const opened = await store.openTask(key, "e-1", write(1));
      const record = {
        taskId: key.taskId,
        invocationId: "e-1",
        phase: "active",
        seq: 1,
        snapshot: { n: 1 },
        cancelRequested: false,
      };
      expect(opened).toEqual({ ok: true, record });
      expect(await store.getTask(key)).toEqual(record);
      expect(await store.activeTask(session)).toBe(key.taskId);
    });

    it("numbers writes in order, closes a terminal task to writes, and refuses a stale expectSeq", async () => {
      await store.createSession(session);
      await store.openTask(key, "e-1", write(1));
      expect(await store.writeTask(key, write(2), { expectSeq: 0 })).toEqual({ ok: false, reason: "stale" });
      expect(await store.writeTask(key, write(2), { expectSeq: 1 })).toMatchObject({
        ok: true,
        record: { seq: 2 },
      });
      expect(await store.writeTask(key, write(3, "terminal"))).toMatchObject({
        ok: true,
        record: { seq: 3, phase: "terminal" },
      });
      expect(await store.writeTask(key, write(4))).toEqual({ ok: false, reason: "closed" });
      expect(await store.getTask(key)).toMatchObject({ seq: 3, snapshot: { n: 3 } });
      expect(await store.activeTask(session)).toBeNull();
      expect(await store.writeTask({ ...key, taskId: "nope" }, write(1))).toEqual({
        ok: false,
        reason: "missing",
      });
    });

    it("reopens only an interrupted task, under the invocation that resumes it", async () => {
      await store.createSession(session);
      await store.openTask(key, "e-1", write(1));
      expect(await store.openTask(key, "e-2", write(2))).toEqual({ ok: false, reason: "stale" });
      await store.writeTask(key, write(2, "interrupted"));
      expect(await store.openTask(key, "e-2", write(3))).toMatchObject({
        ok: true,
        record: { invocationId: "e-2", seq: 3, phase: "active" },
      });
      await store.writeTask(key, write(4, "terminal"));
      expect(await store.openTask(key, "e-3", write(5))).toEqual({ ok: false, reason: "closed" });
    });

    it("follows a task: the snapshot, then every later update once, partial ones unnumbered, ending at a non-active phase", async () => {
      await store.createSession(session);
      await store.openTask(key, "e-1", write(1));
      await store.writeTask(key, write(2));
      const feed = await store.followTask(key);
      const reading = drain(feed);
      await store.publishTask(key, { partial: true });
      await store.writeTask(key, write(3));
      await store.writeTask(key, write(4, "interrupted"));
      expect(await reading).toEqual([
        { kind: "snapshot", seq: 2, phase: "active", snapshot: { n: 2 } },
        { kind: "update", seq: null, phase: "active", update: { partial: true } },
        { kind: "update", seq: 3, phase: "active", update: { n: 3 } },
        { kind: "update", seq: 4, phase: "interrupted", update: { n: 4 } },
      ]);
      // A feed of a task that is not active is its snapshot alone; an unknown task has none.
      expect(await drain(await store.followTask(key))).toEqual([
        { kind: "snapshot", seq: 4, phase: "interrupted", snapshot: { n: 4 } },
      ]);
      expect(await store.followTask({ ...key, taskId: "nope" })).toBeNull();
    });

    it("lets a follower stop early without disturbing the writer or other followers", async () => {
      await store.createSession(session);
      await store.openTask(key, "e-1", write(1));
      const quitter = await store.followTask(key);
      const stayer = drain(await store.followTask(key));
      expect((await quitter?.next())?.value).toMatchObject({ kind: "snapshot" });
      await quitter?.return(undefined);
      await store.writeTask(key, write(2));
      await store.writeTask(key, write(3, "terminal"));
      expect((await stayer).map((e) => e.seq)).toEqual([1, 2, 3]);
    });

    it("refuses a canceled invocation's next append with turn_canceled, storing a TURN_CANCELED event by its author instead", async () => {
      await store.createSession(session);
      const userEvent = makeEvent({ invocationId: "e-run", text: "go" });
      const { lease } = await store.beginTurn(session, userEvent);
      await store.openTask(key, "e-run", write(1));
      const before = makeEvent({ invocationId: "e-run", author: "agent", text: "working" });
      await store.appendEvent(session, before, { lease });
      const canceled = await store.writeTask(key, write(2, "terminal"), { expectSeq: 1, cancel: true });
      expect(canceled).toMatchObject({ ok: true, record: { cancelRequested: true, phase: "terminal" } });

      const after = makeEvent({ invocationId: "e-run", author: "agent", text: "too late" });
      await expectRefusal(store.appendEvent(session, after, { lease }), "turn_canceled");
      const events = (await store.getSession(session))?.events ?? [];
      expect(events.map((e) => e.id).slice(0, 2)).toEqual([userEvent.id, before.id]);
      expect(events).toHaveLength(3);
      expect(events[2]).toMatchObject({ invocationId: "e-run", author: "agent", errorCode: "TURN_CANCELED" });
      // Other invocations append as before once the lease is released.
      await store.endTurn(session, lease);
      await expect(
        store.appendEvent(session, makeEvent({ invocationId: "e-next", text: "hi" })),
      ).resolves.toBeDefined();
    });

    it("lists an app's tasks from its index, newest status first, filtered, in pages that meet end to end", async () => {
      const other = { ...session, sessionId: crypto.randomUUID() };
      await store.createSession(session);
      await store.createSession(other);
      const task = (n: number, state: string, contextId: string) => ({
        snapshot: { id: `t${n}`, contextId, status: { state, timestamp: new Date(1_000 * n).toISOString() } },
        phase: "active" as const,
        update: { n },
      });
      for (let n = 1; n <= 5; n++) {
        const at = n % 2 === 0 ? other : session;
        const state = n === 5 ? "TASK_STATE_WORKING" : "TASK_STATE_SUBMITTED";
        await store.openTask({ ...at, taskId: `t${n}` }, `e-${n}`, task(n, state, at.sessionId));
        if (n < 5)
          await store.writeTask(
            { ...at, taskId: `t${n}` },
            { ...task(n, state, at.sessionId), phase: "terminal" },
          );
      }
      const ids = (page: { snapshots: Record<string, unknown>[] }) => page.snapshots.map((s) => s.id);
      const app = session.appName;

      const first = await store.listTasks({ appName: app, pageSize: 2 });
      expect(ids(first)).toEqual(["t5", "t4"]);
      expect(first.totalSize).toBe(5);
      const second = await store.listTasks({
        appName: app,
        pageSize: 2,
        ...(first.next ? { after: first.next } : {}),
      });
      expect(ids(second)).toEqual(["t3", "t2"]);
      const third = await store.listTasks({
        appName: app,
        pageSize: 2,
        ...(second.next ? { after: second.next } : {}),
      });
      expect(ids(third)).toEqual(["t1"]);
      expect(third.next).toBeNull();

      expect(ids(await store.listTasks({ appName: app, pageSize: 50, contextId: other.sessionId }))).toEqual([
        "t4",
        "t2",
      ]);
      expect(ids(await store.listTasks({ appName: app, pageSize: 50, state: "TASK_STATE_WORKING" }))).toEqual(
        ["t5"],
      );
      expect(ids(await store.listTasks({ appName: app, pageSize: 50, statusTimeFrom: 3_000 }))).toEqual([
        "t5",
        "t4",
        "t3",
      ]);
      expect(ids(await store.listTasks({ appName: app, pageSize: 50, userId: "someone-else" }))).toEqual([]);
      expect((await store.listTasks({ appName: freshApp(), pageSize: 50 })).totalSize).toBe(0);

      // A deleted session's tasks leave the index with it.
      await store.deleteSession(other);
      expect(ids(await store.listTasks({ appName: app, pageSize: 50 }))).toEqual(["t5", "t3", "t1"]);
    });

    it("keeps push configs with their task, ended or not: replaced by id, in the order first saved, limited, deleted idempotently", async () => {
      const config = (id: string, url = `https://hooks.example/${id}`) => ({
        id,
        url,
        token: `token-${id}`,
        authentication: null,
        version: "1.0",
      });
      expect(await store.savePushConfig(key, config("a"))).toBe("missing");
      expect(await store.pushConfigs(key)).toBeNull();
      expect(await store.deletePushConfig(key, "a")).toBe(false);
      await store.createSession(session);
      await store.openTask(key, "e-1", write(1));
      // A config may be set on a task that has ended (no write follows, so nothing is ever delivered).
      await store.writeTask(key, write(2, "terminal"));
      expect(await store.pushConfigs(key)).toEqual([]);
      expect(await store.savePushConfig(key, config("a"))).toBe("saved");
      expect(await store.savePushConfig(key, config("b"))).toBe("saved");
      const bearer = {
        ...config("a", "https://hooks.example/new"),
        authentication: { scheme: "Bearer", credentials: "c" },
      };
      expect(await store.savePushConfig(key, bearer)).toBe("saved");
      expect(await store.pushConfigs(key)).toEqual([bearer, config("b")]);
      for (let n = 2; n < MAX_PUSH_CONFIGS_PER_TASK; n++) await store.savePushConfig(key, config(`c${n}`));
      expect(await store.savePushConfig(key, config("one-too-many"))).toBe("full");
      expect(await store.savePushConfig(key, config("b", "https://hooks.example/b2"))).toBe("saved");
      expect(await store.deletePushConfig(key, "a")).toBe(true);
      expect(await store.deletePushConfig(key, "a")).toBe(true);
      const left = await store.pushConfigs(key);
      expect(left?.map((c) => c.id)).toEqual(["b", ...Array.from({ length: 8 }, (_, i) => `c${i + 2}`)]);
      expect(left?.[0]?.url).toBe("https://hooks.example/b2");
      const other = { ...key, taskId: `t-${crypto.randomUUID()}` };
      expect(await store.openTask(other, "e-2", write(1))).toMatchObject({ ok: true });
      expect(await store.pushConfigs(other)).toEqual([]);
    });
  });
}
