import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";
import { describe, expect, it } from "vitest";
import type { SourceFile } from "../../../scripts/rooms/house.js";
import { prototypeReachableLookups } from "../../../scripts/rooms/lookup-tables.js";
import { PARAMS } from "../../../src/a2a/server/rpc-params.js";
import { GEMINI_TOOLS_BY_YAML_NAME } from "../../../src/agents/gemini-tools.js";
import { lookupTable } from "../../../src/core/lookup-table.js";
import { METRICS, resolveMetrics } from "../../../src/evals/metrics.js";
import { porterStem } from "../../../src/evals/porter.js";

const SRC = join(import.meta.dirname, "../../../src");

function sources(dir: string): SourceFile[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return sources(path);
    if (!name.endsWith(".ts") || name.endsWith(".d.ts")) return [];
    return [{ path: relative(SRC, path).replaceAll("\\", "/"), text: readFileSync(path, "utf8") }];
  });
}

/** Every name a key could take from `Object.prototype`, `__proto__` included. */
const PROTOTYPE_NAMES = [...Object.getOwnPropertyNames(Object.prototype), "prototype"];

describe("lookup tables and Object.prototype", () => {
  it("finds no table in src/ that a key could read through its prototype", () => {
    expect(prototypeReachableLookups(sources(SRC))).toEqual([]);
  });

  it("finds a plain object literal read by a computed key or `in`, here or where it is imported", () => {
    const found = prototypeReachableLookups([
      {
        path: "a/table.ts",
        text: 'export const METHODS = { send: 1 } as const;\nexport const pick = (m: string) => METHODS[m as "send"];\n',
      },
      {
        path: "a/use.ts",
        text: 'import { METHODS } from "./table.js";\nexport const has = (m: string) => m in METHODS;\n',
      },
    ]);
    expect(found).toEqual(['a/table.ts:2: METHODS[m as "send"]', "a/use.ts:2: m in METHODS"]);
  });

  it("accepts literal keys, null-prototype tables, Maps and a read whose key is closed by its type", () => {
    const found = prototypeReachableLookups([
      {
        path: "b/ok.ts",
        text: [
          'import { lookupTable } from "../core/lookup-table.js";',
          "const PLAIN = { a: 1 };",
          "const SAFE = lookupTable({ a: 1 });",
          "const MAP = new Map([['a', 1]]);",
          'export const one = PLAIN["a"];',
          "export const two = (k: string) => SAFE[k] ?? MAP.get(k);",
          "export const three = (k: 'a') =>",
          "  // closed key: 'a' by its type.",
          "  PLAIN[k];",
        ].join("\n"),
      },
    ]);
    expect(found).toEqual([]);
  });

  it("answers nothing for any prototype name from every table a request's words reach", () => {
    const plain: Readonly<Record<string, number>> = lookupTable({ a: 1 });
    const tables: Record<string, (key: string) => unknown> = {
      "A2A JSON-RPC params": (key) => PARAMS.get(key),
      "eval metrics": (key) => METRICS[key],
      "Agent Config's Gemini tools": (key) => GEMINI_TOOLS_BY_YAML_NAME[key],
      lookupTable: (key) => plain[key],
    };
    for (const [table, read] of Object.entries(tables))
      for (const name of PROTOTYPE_NAMES) expect([table, name, read(name)]).toEqual([table, name, undefined]);
    for (const name of PROTOTYPE_NAMES) {
      expect(porterStem(name.toLowerCase())).toEqual(expect.any(String));
      expect(() => resolveMetrics([{ metricName: name }])).toThrow(/Unknown eval metric/);
    }
  });
});
