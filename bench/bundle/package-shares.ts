import type { Metafile } from "esbuild";

/** One package's (or `src`'s) bytes in a bundle, and its share of the whole. */
export interface PackageShare {
  name: string;
  bytes: number;
  share: number;
}

/** The package a bundled file came from: the last `node_modules/<name>` in its path, or `src` for ours. */
export function packageOf(file: string): string {
  const match = /.*node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(file);
  return match?.[1] ?? (file.includes("node_modules") ? file : "(baton)");
}

/** The files that put bytes into the bundle's entry output (esbuild also lists those it shook out entirely). */
export function bundledFiles(metafile: Metafile): Map<string, number> {
  const output = Object.values(metafile.outputs).find((o) => o.entryPoint !== undefined);
  if (!output) throw new Error("The metafile has no entry output.");
  const files = Object.entries(output.inputs).filter(([, input]) => input.bytesInOutput > 0);
  return new Map(files.map(([file, input]) => [file, input.bytesInOutput]));
}

/** Every input of the bundle's entry output, by package, largest first. */
export function packageShares(metafile: Metafile): PackageShare[] {
  const bytes = new Map<string, number>();
  for (const [file, size] of bundledFiles(metafile)) {
    const name = packageOf(file);
    bytes.set(name, (bytes.get(name) ?? 0) + size);
  }
  const total = [...bytes.values()].reduce((a, b) => a + b, 0);
  return [...bytes]
    .map(([name, n]) => ({ name, bytes: n, share: total === 0 ? 0 : n / total }))
    .sort((a, b) => b.bytes - a.bytes);
}

/** The copies of each package the bundle holds (distinct `node_modules/<name>` folders), when more than one. */
export function duplicatePackages(metafile: Metafile): Map<string, string[]> {
  const folders = new Map<string, Set<string>>();
  for (const file of bundledFiles(metafile).keys()) {
    const match = /^(.*node_modules\/((?:@[^/]+\/)?[^/]+))\//.exec(file);
    const [, folder, name] = match ?? [];
    if (folder === undefined || name === undefined) continue;
    folders.set(name, (folders.get(name) ?? new Set()).add(folder));
  }
  return new Map([...folders].filter(([, f]) => f.size > 1).map(([name, f]) => [name, [...f]]));
}
