#!/usr/bin/env node
/**
 * The `baton-eval` bin of `@baton-agents/core`: ADK's eval sets run against an app in Node (`eval-command.ts`).
 * `baton-eval src/app.ts evals` in a project made by create-baton-agents (its `npm run eval`).
 */
import { evalCommand } from "./eval-command.js";

process.exitCode = await evalCommand(process.argv.slice(2), { command: "baton-eval" });
