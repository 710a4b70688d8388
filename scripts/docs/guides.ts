/**
 * The Markdown a newcomer reads: the README and the guides in docs/ (not the decision records, the
 * benchmarks log or the generated API reference). The doc tests run and compile what these show.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { type DocBlock, docBlocks } from "./doc-blocks.js";

const ROOT = join(import.meta.dirname, "../..");

/** Logs and records, not guides: their commands and code are history. */
const NOT_GUIDES = new Set(["benchmarks.md"]);

export interface Guide {
  /** Relative to the repo, `/`-separated. */
  path: string;
  text: string;
  blocks: DocBlock[];
}

export function guides(): Guide[] {
  const paths = [
    "README.md",
    ...readdirSync(join(ROOT, "docs"))
      .filter((name) => name.endsWith(".md") && !NOT_GUIDES.has(name))
      .sort()
      .map((name) => `docs/${name}`),
  ];
  return paths.map((path) => {
    const text = readFileSync(join(ROOT, path), "utf8");
    return { path, text, blocks: docBlocks(text) };
  });
}

/** The dev server's vars as `npm run dev` sets them (its `--var K:V` flags in package.json). */
export function devVars(): Record<string, string> {
  const scripts: Record<string, string> = JSON.parse(
    readFileSync(join(ROOT, "package.json"), "utf8"),
  ).scripts;
  const vars: Record<string, string> = {};
  for (const [, quoted, bare] of (scripts.dev ?? "").matchAll(/--var (?:'([^']*)'|(\S+))/g)) {
    const pair = quoted ?? bare ?? "";
    const colon = pair.indexOf(":");
    if (colon > 0) vars[pair.slice(0, colon)] = pair.slice(colon + 1);
  }
  return vars;
}
