#!/usr/bin/env node
/**
 * The `baton-dev-ui` bin of `@baton-agents/core`: `baton-dev-ui [assets-dir]` (default `.dev-ui-assets`)
 * puts ADK's dev UI where `wrangler dev --assets <assets-dir>` serves it at `/dev-ui/` (`dev-ui-assets.ts`).
 * A project's `predev`. Offline it leaves a page saying how to get the UI and exits 0, so `npm run dev` starts.
 */
import { resolve } from "node:path";
import { devUiCommand } from "./dev-ui-command.js";

process.exitCode = await devUiCommand(resolve(process.argv[2] ?? ".dev-ui-assets"), "npx baton-dev-ui");
