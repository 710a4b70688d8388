import { describe, expect, it } from "vitest";
import { z } from "zod";
import { functionTool } from "../../../src/agents/function-tool.js";
import { LlmAgent } from "../../../src/agents/llm-agent.js";
import type { Event } from "../../../src/core/event.js";
import { createAdkApi } from "../../../src/handlers/api.js";
import { defineApp } from "../../../src/runner/app.js";
import { InMemorySessionStore } from "../../../src/session/in-memory-store.js";
import { testServices } from "../support/run-helpers.js";
import { scriptedModel } from "../support/scripted-model.js";

/** A two-level tree that is not the demo's: desk → (lookup with a tool, escalation → manager). */
function api(env: Record<string, string> = { ALLOW_UNAUTHENTICATED: "true" }) {
  const services = testServices();
  const store = new InMemorySessionStore({ clock: services.clock, ids: services.ids });
  const find = functionTool({
    name: "find_order",
    description: "Finds an order",
    parameters: z.object({ id: z.string() }),
    execute: ({ id }) => ({ id }),
  });
  const manager = new LlmAgent({ name: "manager", description: 'Says "no"', model: "demo:m" });
  const escalation = new LlmAgent({ name: "escalation", model: "demo:e", subAgents: [manager] });
  const lookup = new LlmAgent({ name: "lookup", model: "demo:l", tools: [find] });
  const desk = new LlmAgent({
    name: "desk",
    description: "Front desk",
    model: scriptedModel([{ calls: [{ name: "transfer_to_agent", args: { agent_name: "lookup" } }] }]),
    subAgents: [lookup, escalation],
  });
  const app = defineApp({ name: "shop", rootAgent: desk });
  const http = createAdkApi(() => ({ apps: new Map([[app.name, app]]), sessionStore: store, services }));
  const call = (path: string, init: RequestInit = {}) => http.request(path, init, env);
  const json = async (path: string, init: RequestInit = {}) => (await call(path, init)).json();
  return { call, json, store };
}

describe("the dev UI's endpoints", () => {
  it("serves the agent tree as ADK's build_graph app info, tools included and the transfer tool left out", async () => {
    const { json } = api();
    expect(await json("/dev/apps/shop/build_graph")).toEqual({
      name: "shop",
      root_agent: {
        name: "desk",
        type: "agent",
        description: "Front desk",
        model: "scripted:scripted",
        sub_agents: [
          { name: "lookup", type: "agent", model: "demo:l", tools: [{ name: "find_order", type: "tool" }] },
          {
            name: "escalation",
            type: "agent",
            model: "demo:e",
            sub_agents: [{ name: "manager", type: "agent", description: 'Says "no"', model: "demo:m" }],
          },
        ],
      },
    });
  });

  it("draws the tree as DOT: every agent, every tool, parent → sub-agent and agent → tool edges", async () => {
    const { json } = api();
    const body = (await json("/dev/apps/shop/build_graph_image?dark_mode=true")) as Record<string, unknown>;
    const dot = String(body.dotSrc);
    expect(body[""]).toEqual({ dotSrc: dot });
    expect(dot.startsWith('digraph "desk" {')).toBe(true);
    expect(dot).toContain('bgcolor="#0F172A"');
    for (const edge of ['"desk" -> "lookup"', '"desk" -> "escalation"', '"escalation" -> "manager"'])
      expect(dot).toContain(edge);
    expect(dot).toMatch(/"lookup" -> "find_order" \[style="dashed"\]/);
    expect(dot).not.toContain("transfer_to_agent");
    expect(dot).toContain('tooltip="Says \\"no\\""');
  });

  it("draws a sub-tree for ?node= and answers 404 for a node that does not exist", async () => {
    const { call, json } = api();
    const body = (await json("/dev/apps/shop/build_graph_image?node=desk/escalation")) as Record<
      string,
      unknown
    >;
    expect(String(body.dotSrc)).toContain('digraph "escalation"');
    expect(String(body.dotSrc)).not.toContain('"desk"');
    expect(Object.keys(body)).toContain("desk/escalation");
    expect((await call("/dev/apps/shop/build_graph_image?node=nobody")).status).toBe(404);
    expect((await call("/dev/apps/nope/build_graph")).status).toBe(404);
  });

  it("lights up the transfer of a stored event in its event graph, on both of ADK's paths", async () => {
    const { call, json } = api();
    await call("/apps/shop/users/u/sessions", { method: "POST", body: JSON.stringify({ sessionId: "g1" }) });
    const events = (await json("/run", {
      method: "POST",
      headers: { "content-type": "application/json" },
      // ADK's dev UI sends `stateDelta: null`; pydantic reads it as absent, and so does Baton.
      body: JSON.stringify({
        appName: "shop",
        userId: "u",
        sessionId: "g1",
        newMessage: { role: "user", parts: [{ text: "where is my order" }] },
        stateDelta: null,
      }),
    })) as Event[];
    const transfer = events.find((e) => e.actions.transferToAgent === "lookup");
    expect(transfer).toBeDefined();
    for (const prefix of ["", "/dev"]) {
      const path = `${prefix}/apps/shop/users/u/sessions/g1/events/${transfer?.id}/graph`;
      const { dotSrc } = (await json(path)) as { dotSrc: string };
      expect(dotSrc).toMatch(/"desk" -> "lookup" \[color="#69CB87"/);
      expect(dotSrc).toMatch(/"lookup" \[[^\n]*fillcolor="#0F5223"/);
      expect(dotSrc).not.toMatch(/"escalation" \[[^\n]*fillcolor="#0F5223"/);
    }
    expect((await call("/apps/shop/users/u/sessions/g1/events/nope/graph")).status).toBe(404);
    expect((await call("/apps/shop/users/u/sessions/none/events/x/graph")).status).toBe(404);
  });

  it("answers 501 with a sentence for the builder, tests and artifacts", async () => {
    const { call } = api();
    for (const path of [
      "/dev/apps/shop/builder?ts=1",
      "/dev/apps/shop/tests",
      "/apps/shop/users/u/sessions/s/artifacts",
    ]) {
      const res = await call(path);
      expect(res.status, path).toBe(501);
      expect(await res.json(), path).toMatchObject({
        code: "not_supported",
        detail: expect.stringContaining("not supported"),
      });
    }
  });

  it("redirects / to the dev UI only when DEV_UI is set, and reports the version as ADK does", async () => {
    const dev = api({ ALLOW_UNAUTHENTICATED: "true", DEV_UI: "true" });
    const res = await dev.call("/");
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/dev-ui/");
    expect((await api().call("/")).status).toBe(404);
    expect(await dev.json("/version")).toEqual({
      version: expect.any(String),
      language: "typescript",
      language_version: "ES2023",
    });
  });
});
