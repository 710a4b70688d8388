/**
 * What a user installs and deploys, from the packed tarballs (`npm pack` of this repo and of the starter):
 * the packages and bytes `npm install @baton-agents/core zod` adds, the same for a project the starter
 * makes, and the Worker `wrangler deploy --dry-run` builds for the starter's project and for the project
 * docs/deploying.md's "Add Baton to a Worker you have" describes (its files and its `npm install` line).
 */
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { docFiles, docInstall } from "../../scripts/docs/doc-blocks.js";
import { packageShares } from "./package-shares.js";
import { wranglerBuild } from "./wrangler-build.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const exec = promisify(execFile);

/** A command's output (stdout, then stderr); npm's environment without this checkout's own npm_* variables. */
async function sh(command: string, args: string[], cwd: string): Promise<string> {
  return (await shParts(command, args, cwd)).join("");
}

async function shParts(command: string, args: string[], cwd: string): Promise<[string, string]> {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/^npm_(?!config_cache)/i.test(key)),
  );
  const { stdout, stderr } = await exec(command, args, {
    cwd,
    env: { ...env, WRANGLER_SEND_METRICS: "false" },
    maxBuffer: 64 * 1024 * 1024,
  });
  return [stdout, stderr];
}

async function packInto(dir: string, into: string): Promise<string> {
  const [out] = await shParts("npm", ["pack", "--json", "--pack-destination", into], dir);
  const [packed] = JSON.parse(out.slice(out.indexOf("["))) as { filename: string }[];
  if (!packed) throw new Error(`npm pack in ${dir} reported no tarball.`);
  return join(into, packed.filename);
}

/** Bytes of the files under `dir` (`du --apparent-size`), and blocks on disk as `du -s` counts them. */
async function weigh(dir: string): Promise<{ bytes: number; diskBytes: number }> {
  let bytes = 0;
  let diskBytes = 0;
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) {
      const inner = await weigh(path);
      bytes += inner.bytes;
      diskBytes += inner.diskBytes;
    } else if (entry.isFile()) {
      const info = await stat(path);
      bytes += info.size;
      diskBytes += info.blocks * 512;
    }
  }
  return { bytes, diskBytes };
}

interface Install {
  label: string;
  added: number;
  mib: number;
  diskMib: number;
}

async function install(label: string, dir: string, args: string[]): Promise<Install> {
  const out = await sh("npm", ["install", "--prefer-offline", "--no-audit", "--no-fund", ...args], dir);
  const added = Number(/added (\d+) packages?/.exec(out)?.[1] ?? Number.NaN);
  const { bytes, diskBytes } = await weigh(join(dir, "node_modules"));
  return { label, added, mib: bytes / 2 ** 20, diskMib: diskBytes / 2 ** 20 };
}

const WRANGLER_PIN = JSON.parse(await readFile(join(ROOT, "package.json"), "utf8")).devDependencies.wrangler;

export async function packedProjectsBench(): Promise<void> {
  const work = await mkdtemp(join(tmpdir(), "baton-packed-"));
  try {
    const core = await packInto(ROOT, work);
    const starterTarball = await packInto(join(ROOT, "packages/create-baton-agents"), work);

    const coreOnly = join(work, "core-only");
    await mkdir(coreOnly);
    await writeFile(join(coreOnly, "package.json"), '{ "name": "core-only", "private": true }');
    const installs = [await install("npm install @baton-agents/core zod", coreOnly, [core, "zod"])];

    await sh(
      "npm",
      [
        "exec",
        "--yes",
        `--package=${starterTarball}`,
        "--",
        "create-baton-agents",
        "starter",
        "--baton-spec",
        core,
      ],
      work,
    );
    const starter = join(work, "starter");
    installs.push(await install("a project from the starter (npm install)", starter, []));

    const guide = await readFile(join(ROOT, "docs/deploying.md"), "utf8");
    const added = join(work, "add-baton");
    for (const [file, text] of docFiles(guide)) {
      await mkdir(dirname(join(added, file)), { recursive: true });
      await writeFile(join(added, file), text);
    }
    await writeFile(
      join(added, "package.json"),
      '{ "name": "add-baton", "private": true, "type": "module" }',
    );
    const packages = docInstall(guide).map((name) => (name === "@baton-agents/core" ? core : name));
    installs.push(await install("docs/deploying.md's npm install line", added, packages));
    await sh(
      "npm",
      ["install", "--prefer-offline", "--no-audit", "--no-fund", "-D", `wrangler@${WRANGLER_PIN}`],
      added,
    );

    console.log(
      "\nInstalled from the packed tarballs (npm's count; bytes of the files, and on disk as du counts):",
    );
    for (const i of installs)
      console.log(
        `  ${i.label}: ${i.added} packages, ${i.mib.toFixed(1)} MiB (${i.diskMib.toFixed(1)} MiB on disk)`,
      );

    console.log(
      "\nWorkers from the packed tarballs (wrangler deploy --dry-run in the project, gzip of the script):",
    );
    for (const [label, dir] of [
      ["the starter's Worker", starter],
      ["docs/deploying.md's Worker", added],
    ] as const) {
      const built = await wranglerBuild(undefined, {
        cwd: dir,
        wrangler: join(dir, "node_modules/.bin/wrangler"),
      });
      const top = packageShares(built.metafile)
        .slice(0, 6)
        .map((p) => `${p.name} ${(p.share * 100).toFixed(0)}%`);
      console.log(`  ${label}: ${built.gzipKiB.toFixed(1)} KiB gzip (${built.rawKiB.toFixed(1)} KiB raw)`);
      console.log(`    biggest (share of raw bytes): ${top.join(", ")}`);
    }
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}
