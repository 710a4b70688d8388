import { readFileSync } from "node:fs";
import { join } from "node:path";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";

const ROOT = join(import.meta.dirname, "../../..");

interface PackageJson {
  exports: Record<string, string | Record<string, string>>;
  dependencies: Record<string, string>;
  peerDependencies: Record<string, string>;
  peerDependenciesMeta: Record<string, { optional?: boolean }>;
  entryPeers: Record<string, string[] | string>;
}

// SAFETY: package.json is this repo's own; the fields read here are checked by the tests below.
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as PackageJson;

/** Each exports entry with its source (the `baton-source` condition). */
const entries = Object.entries(pkg.exports).flatMap(([entry, target]) =>
  typeof target === "object" && target["baton-source"] ? [{ entry, source: target["baton-source"] }] : [],
);

/** A package's name from an import specifier: `@scope/name/sub` → `@scope/name`, `name/sub` → `name`. */
const packageName = (specifier: string) =>
  specifier
    .split("/")
    .slice(0, specifier.startsWith("@") ? 2 : 1)
    .join("/");

/** The packages an entry's modules import (every package left outside the bundle), by name. */
async function importedPackages(source: string): Promise<string[]> {
  const result = await build({
    entryPoints: [join(ROOT, source)],
    absWorkingDir: ROOT,
    bundle: true,
    write: false,
    metafile: true,
    format: "esm",
    platform: "neutral",
    packages: "external",
    external: ["cloudflare:*", "node:*"],
    logLevel: "silent",
  });
  const names = new Set<string>();
  for (const input of Object.values(result.metafile.inputs))
    for (const imported of input.imports)
      if (imported.external && !/^(cloudflare|node):/.test(imported.path))
        names.add(packageName(imported.path));
  return [...names].sort();
}

/** The peer dependencies an installed package declares. */
const peersOf = (name: string): Record<string, string> =>
  // SAFETY: an installed package's package.json; only its optional `peerDependencies` map is read.
  (
    JSON.parse(readFileSync(join(ROOT, "node_modules", name, "package.json"), "utf8")) as {
      peerDependencies?: Record<string, string>;
    }
  ).peerDependencies ?? {};

const namedPeers = (entry: string): string[] => {
  const peers = pkg.entryPeers[entry];
  return Array.isArray(peers) ? peers : [];
};

describe("each entry names the optional peers it needs (package.json entryPeers, docs/install.md)", () => {
  it("lists every exports entry, and nothing else", () => {
    const listed = Object.keys(pkg.entryPeers).filter((key) => key !== "//");
    expect(listed.sort()).toEqual(entries.map((e) => e.entry).sort());
  });

  it("names only optional peers, and every optional peer is named by some entry", () => {
    const optional = Object.keys(pkg.peerDependenciesMeta).filter(
      (name) => pkg.peerDependenciesMeta[name]?.optional,
    );
    const named = new Set(entries.flatMap((e) => namedPeers(e.entry)));
    expect([...named].sort()).toEqual(optional.sort());
    expect(optional.every((name) => name in pkg.peerDependencies)).toBe(true);
  });

  for (const { entry, source } of entries) {
    it(`${entry} imports only dependencies, zod and the peers it names`, async () => {
      const imported = await importedPackages(source);
      const allowed = new Set([...Object.keys(pkg.dependencies), "zod", ...namedPeers(entry)]);
      expect(imported.filter((name) => !allowed.has(name))).toEqual([]);
      // A named peer the entry no longer needs would make its users install it for nothing: each is imported,
      // or a peer of a package it imports (the MCP SDK's Workers validator needs `@cfworker/json-schema`).
      const peersOfImported = new Set(imported.flatMap((name) => Object.keys(peersOf(name))));
      expect(
        namedPeers(entry).filter((name) => !imported.includes(name) && !peersOfImported.has(name)),
      ).toEqual([]);
    });
  }

  it("keeps the core entry free of every optional peer", async () => {
    const imported = await importedPackages("src/index.ts");
    expect(imported.filter((name) => pkg.peerDependenciesMeta[name]?.optional)).toEqual([]);
  });
});
