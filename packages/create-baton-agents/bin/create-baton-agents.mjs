#!/usr/bin/env node
// @ts-check
/**
 * `npm create baton-agents@latest my-app`: writes a Baton Worker project (template/) into my-app. Plain ESM
 * JavaScript with no dependencies, so `npm create` runs it straight from the tarball without a build.
 */
import { relative, resolve } from "node:path";
import { parseArgs } from "node:util";
import { createProject, VERSION } from "../lib/create-project.mjs";

const USAGE = `Usage: npm create baton-agents@latest <directory> [-- --baton-spec <spec>]

  <directory>          where the project is written; it must not exist or be empty
  --baton-spec <spec>  the @baton-agents/core dependency (default ^${VERSION}): a version range,
                       a tarball or folder path, or any other spec npm install takes
  --name <name>        the package and Worker name (default: the directory's name)`;

const { values, positionals } = parseArgs({
  options: {
    "baton-spec": { type: "string" },
    name: { type: "string" },
    help: { type: "boolean", short: "h" },
  },
  allowPositionals: true,
});
const [directory] = positionals;
if (values.help || directory === undefined || positionals.length > 1) {
  console.log(USAGE);
  process.exit(values.help ? 0 : 1);
}
const target = resolve(directory);
const given = values["baton-spec"];
// A path is made an absolute `file:` spec here: npm install runs inside the new project, not in this directory.
const batonSpec =
  given !== undefined && /^(file:)?(\.{1,2}[\\/]|\/)/.test(given)
    ? `file:${resolve(given.replace(/^file:/, ""))}`
    : given;
try {
  createProject({
    target,
    ...(values.name === undefined ? {} : { name: values.name }),
    ...(batonSpec === undefined ? {} : { batonSpec }),
  });
} catch (error) {
  console.error(error instanceof Error ? error.message : String(error));
  process.exit(1);
}
const cd = relative(process.cwd(), target) || ".";
console.log(`Baton project written to ${cd}. Next:

  cd ${cd}
  npm install && npm run dev   # the app and ADK's dev UI on http://127.0.0.1:8787
  npm test                     # turns of the app inside workerd
  npm run eval                 # the eval sets in evals/ against the app

README.md lists the commands of a first deploy.`);
