/**
 * The house's rooms (the folders of `src/`) and the imports between them, read from the sources:
 * `npm run rooms` prints the room picture (each room, the rooms it takes values from, the ones it takes
 * only types from), the circles of value imports between files, the pairs of rooms that import each
 * other's values, imports of `demo/` from outside the demo Worker, the file sizes the house issue
 * targets, and lookup tables a key could reach through `Object.prototype` (`rooms/lookup-tables.ts`). `--check` exits 1 when any rule is broken; `--mermaid` prints the picture as a Mermaid graph.
 */
import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { houseReport, type SourceFile } from "./rooms/house.js";
import { prototypeReachableLookups } from "./rooms/lookup-tables.js";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const SRC = join(ROOT, "src");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sourceFiles(path);
    return name.endsWith(".ts") && !name.endsWith(".d.ts") ? [path] : [];
  });
}

const files: SourceFile[] = sourceFiles(SRC).map((path) => ({
  path: relative(SRC, path).replaceAll("\\", "/"),
  text: readFileSync(path, "utf8"),
}));
const house = houseReport(files);
const lookups = prototypeReachableLookups(files).map(
  (read) => `lookup table read through its prototype: ${read}`,
);
const report = { ...house, problems: [...house.problems, ...lookups] };
const args = new Set(process.argv.slice(2));

if (args.has("--mermaid")) {
  console.log(report.mermaid);
} else {
  console.log(report.text);
}
if (args.has("--check") && report.problems.length > 0) {
  console.error(`\n${report.problems.length} rule(s) broken:\n${report.problems.join("\n")}`);
  process.exit(1);
}
