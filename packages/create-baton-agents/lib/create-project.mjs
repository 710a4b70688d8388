// @ts-check
/** The starter's one job: copy template/ into a new directory with the project's name and Baton's spec. */
import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const TEMPLATE = fileURLToPath(new URL("../template/", import.meta.url));
/** This starter's version; a project depends on the same minor of `@baton-agents/core` by default. */
export const VERSION = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")).version;
/** npm drops `.gitignore` from tarballs, so the template keeps it under another name. */
const RENAMED = new Map([["gitignore", ".gitignore"]]);
/** The placeholder the template's files hold where the project's name goes. */
const NAME_PLACEHOLDER = "baton-app-name";

/**
 * A package and Worker name from a directory name: lowercase letters, digits and dashes.
 * @param {string} dir
 */
export function projectName(dir) {
  const name = basename(resolve(dir))
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, "-")
    .replace(/^-+|-+$/g, "");
  return name === "" ? "baton-app" : name.slice(0, 63);
}

/**
 * Every file under `dir`, relative to it.
 * @param {string} dir
 * @returns {string[]}
 */
function filesUnder(dir) {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry);
    return statSync(path).isDirectory() ? filesUnder(path).map((f) => join(entry, f)) : [entry];
  });
}

/**
 * Writes the project into `target` and returns the files written, relative to it. Throws when `target`
 * holds anything already: nothing is ever overwritten.
 * @param {{ target: string, name?: string, batonSpec?: string }} options
 */
export function createProject({ target, name = projectName(target), batonSpec = `^${VERSION}` }) {
  if (existsSync(target) && readdirSync(target).length > 0)
    throw new Error(`${target} is not empty: choose a new directory.`);
  /** @type {string[]} */
  const written = [];
  for (const file of filesUnder(TEMPLATE)) {
    const out = join(dirname(file), RENAMED.get(basename(file)) ?? basename(file));
    let text = readFileSync(join(TEMPLATE, file), "utf8").replaceAll(NAME_PLACEHOLDER, name);
    if (file === "package.json") {
      const pkg = JSON.parse(text);
      pkg.dependencies["@baton-agents/core"] = batonSpec;
      text = `${JSON.stringify(pkg, null, 2)}\n`;
    }
    mkdirSync(dirname(join(target, out)), { recursive: true });
    writeFileSync(join(target, out), text);
    written.push(out);
  }
  return written.sort();
}
