import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
// The package's own name, resolved through package.json `exports`: what a user's script imports.
import { defineApp, InMemorySessionStore, LlmAgent, Runner, userText } from "@baton-agents/core";
import { describe, expect, it } from "vitest";
import { scriptedModel } from "../support/scripted-model.js";

/** Every module `entry` reaches through static imports, as specifiers resolved to files or left bare. */
function reachable(entry: string): { files: Set<string>; bare: Set<string> } {
  const files = new Set<string>();
  const bare = new Set<string>();
  const visit = (file: string) => {
    if (files.has(file)) return;
    files.add(file);
    const source = readFileSync(file, "utf8");
    for (const [, specifier] of source.matchAll(/^(?:import|export)[^;]*?from\s+"([^"]+)"/gms)) {
      if (specifier === undefined) continue;
      if (specifier.startsWith(".")) visit(resolve(dirname(file), specifier.replace(/\.js$/, ".ts")));
      else bare.add(specifier);
    }
  };
  visit(entry);
  return { files, bare };
}

describe("the baton entry in plain Node", () => {
  it("runs a two-agent transfer turn with the in-memory store and no wiring", async () => {
    const billing = new LlmAgent({
      name: "billing",
      description: "Invoices and refunds",
      model: scriptedModel([{ text: "Invoice 42 is paid." }]),
    });
    const root = new LlmAgent({
      name: "root",
      model: scriptedModel([{ calls: [{ name: "transfer_to_agent", args: { agent_name: "billing" } }] }]),
      subAgents: [billing],
    });
    const store = new InMemorySessionStore();
    const runner = new Runner({ app: defineApp({ name: "node", rootAgent: root }), sessionStore: store });
    await store.createSession({ appName: "node", userId: "u", sessionId: "entry-1" });

    const events = [];
    for await (const event of runner.run({ userId: "u", sessionId: "entry-1", newMessage: userText("hi") }))
      events.push(event);

    expect(events.map((e) => e.author)).toEqual(["root", "root", "billing"]);
    expect(events[1]?.actions.transferToAgent).toBe("billing");
    expect(events[2]?.content?.parts?.[0]?.text).toBe("Invoice 42 is paid.");
    const stored = await store.getSession({ appName: "node", userId: "u", sessionId: "entry-1" });
    expect(stored?.events.map((e) => e.author)).toEqual(["user", "root", "root", "billing"]);
  });

  it("reaches no cloudflare:* module, and @baton-agents/core/cloudflare does", () => {
    const root = join(import.meta.dirname, "../../..");
    const neutral = reachable(join(root, "src/index.ts"));
    expect([...neutral.bare].filter((s) => s.startsWith("cloudflare:"))).toEqual([]);
    expect([...neutral.files].some((f) => f.includes("/src/handlers/"))).toBe(false);
    expect(reachable(join(root, "src/cloudflare.ts")).bare).toContain("cloudflare:workers");
  });

  it("is what package.json exports as @baton-agents/core and @baton-agents/core/cloudflare", () => {
    const pkg = JSON.parse(readFileSync(join(import.meta.dirname, "../../../package.json"), "utf8"));
    expect(pkg.name).toBe("@baton-agents/core");
    expect(pkg.exports).toMatchObject({
      ".": { "baton-source": "./src/index.ts", types: "./dist/index.d.ts", default: "./dist/index.js" },
      "./cloudflare": {
        "baton-source": "./src/cloudflare.ts",
        types: "./dist/cloudflare.d.ts",
        default: "./dist/cloudflare.js",
      },
    });
  });

  it("builds and documents every exports entry: tsconfig.build.json's files and typedoc.json's entry points", () => {
    const root = join(import.meta.dirname, "../../..");
    const read = (file: string) => JSON.parse(readFileSync(join(root, file), "utf8"));
    const sources = Object.values(read("package.json").exports).flatMap((target) =>
      typeof target === "object" && target !== null && "baton-source" in target
        ? [String(target["baton-source"]).slice(2)]
        : [],
    );
    // The bins (package.json bin) are built too: dist/cli/<name>.js from src/cli/<name>.ts.
    const bins = Object.values(read("package.json").bin ?? {}).map((target) =>
      String(target)
        .replace(/^\.\/dist\//, "src/")
        .replace(/\.js$/, ".ts"),
    );
    expect([...read("tsconfig.build.json").files].sort()).toEqual([...sources, ...bins].sort());
    // The zod entries re-export zod: its reference is zod's.
    expect([...read("typedoc.json").entryPoints].sort()).toEqual(
      sources.filter((s) => !s.startsWith("src/zod/")).sort(),
    );
  });

  it("exports every entry as its source (baton-source), then its built declarations and JavaScript, and wrangler.toml aliases each source", () => {
    const root = join(import.meta.dirname, "../../..");
    const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
    const wranglerToml = readFileSync(join(root, "wrangler.toml"), "utf8");
    const entries = Object.entries(pkg.exports).filter(([entry]) => entry !== "./package.json");
    expect(entries.length).toBeGreaterThanOrEqual(12);
    for (const [entry, target] of entries) {
      // Condition order matters: the first that matches wins, so the source must come before the others.
      expect(Object.keys(target as object), entry).toEqual(["baton-source", "types", "default"]);
      const { "baton-source": source, types, default: js } = target as Record<string, string>;
      const built = source?.replace(/^\.\/src\//, "./dist/").replace(/\.ts$/, "");
      expect([types, js], entry).toEqual([`${built}.d.ts`, `${built}.js`]);
      // zod's subpaths are aliased by their bare names (the AI SDK imports them), not by the package's.
      if (entry.startsWith("./zod/")) continue;
      const name = `@baton-agents/core${entry.slice(1)}`;
      expect(wranglerToml, name).toContain(`"${name}" = "${source}"`);
    }
  });
});
