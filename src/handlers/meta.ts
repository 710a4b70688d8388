import { Hono } from "hono";
import { callerOf, mayUseApp } from "./caller.js";
import type { HonoEnv } from "./types.js";

export const BATON_VERSION = "0.1.0";

/** `GET /list-apps` (the apps the caller's token covers), `GET /version` (ADK-SEMANTICS §6.1). `/health` is mounted before auth. */
export const meta = new Hono<HonoEnv>()
  .get("/list-apps", (c) => {
    const caller = callerOf(c);
    const apps = [...c.var.deps.apps.values()].filter((app) => mayUseApp(caller, app.name));
    if (c.req.query("detailed") !== "true") return c.json(apps.map((a) => a.name));
    return c.json({
      apps: apps.map((a) => ({
        name: a.name,
        rootAgentName: a.rootAgent.name,
        description: a.rootAgent.description,
        language: "typescript",
        isComputerUse: false,
        agents: [...a.agents.keys()],
      })),
    });
  })
  .get("/version", (c) =>
    // ADK's server and dev UI spell it `language_version` (FastAPI returns that dict as is).
    c.json({ version: BATON_VERSION, language: "typescript", language_version: "ES2023" }),
  );
