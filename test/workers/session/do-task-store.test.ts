import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { DurableObjectTaskStore } from "../../../src/a2a/tasks/do-task-store.js";
import type { SessionStore } from "../../../src/core/session-store.js";
import type { TaskStore } from "../../../src/core/task-store.js";
import { SESSION_SQL_SCHEMA } from "../../../src/objects/session-schema.js";
import { DurableObjectSessionStore } from "../../../src/session/do-store.js";
import { sessionObjectName } from "../../../src/storage/object-names.js";
import { schemaVersion } from "../../../src/storage/sql.js";
import { freshApp } from "../../contract/fixtures.js";
import { describeTaskStoreContract } from "../../contract/task-store-contract.js";

/** The session and task stores over the same Durable Objects, as one store for the contract. */
function bothStores(): SessionStore & TaskStore {
  const s = new DurableObjectSessionStore(env);
  const t = new DurableObjectTaskStore(env);
  return {
    createSession: (request) => s.createSession(request),
    getSession: (key, window) => s.getSession(key, window),
    listSessions: (app, user, page) => s.listSessions(app, user, page),
    deleteSession: (key) => s.deleteSession(key),
    appendEvent: (key, event, options) => s.appendEvent(key, event, options),
    beginTurn: (key, event, window) => s.beginTurn(key, event, window),
    endTurn: (key, lease, trace) => s.endTurn(key, lease, trace),
    openTask: (key, invocationId, write) => t.openTask(key, invocationId, write),
    getTask: (key) => t.getTask(key),
    writeTask: (key, write, options) => t.writeTask(key, write, options),
    publishTask: (key, update) => t.publishTask(key, update),
    followTask: (key) => t.followTask(key),
    activeTask: (key) => t.activeTask(key),
    listTasks: (query) => t.listTasks(query),
    savePushConfig: (key, config) => t.savePushConfig(key, config),
    pushConfigs: (key) => t.pushConfigs(key),
    deletePushConfig: (key, configId) => t.deletePushConfig(key, configId),
  };
}

describeTaskStoreContract("DurableObjectTaskStore", bothStores);

describe("the session object's task tables", () => {
  it("come with schema step 2: a new object is at the last version, with tasks and task_updates", async () => {
    const key = { appName: freshApp(), userId: "u1", sessionId: "s1" };
    await new DurableObjectSessionStore(env).createSession(key);
    const tables = await runInDurableObject(env.SESSIONS.getByName(sessionObjectName(key)), (_, state) => ({
      version: schemaVersion(state.storage.sql),
      names: state.storage.sql
        .exec("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        .toArray()
        .map((row) => row.name),
    }));
    expect(SESSION_SQL_SCHEMA[1]).toContain("CREATE TABLE tasks");
    expect(tables.version).toBe(SESSION_SQL_SCHEMA.length);
    expect(tables.names).toEqual(expect.arrayContaining(["events", "session", "task_updates", "tasks"]));
  });
});
