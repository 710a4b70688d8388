/**
 * The package as a user gets it: `npm pack` of @baton-agents/core and create-baton-agents, each tarball
 * installed into fresh folders from the registry (npm's cache makes it fast; nothing comes from this
 * checkout's node_modules), then compiled, run and served there: a project with the core entry only, one
 * per set of optional peers an entry names, one with every peer, and the starter's. Minutes of work: its
 * own vitest project.
 */
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { githubRepository, relativeTargets } from "../../scripts/registry-readme/absolute-links.js";
import {
  APP_MJS,
  CORE_ONLY_MJS,
  nodeEntriesTs,
  nodeTsconfig,
  workersTsconfig,
  workerTs,
} from "./consumer-files.js";
import { type DevServer, type Ran, run, startDev } from "./processes.js";
import {
  bundleErrors,
  dependedOn,
  entriesOf,
  type Installed,
  install,
  installedPackages,
  peerGroups,
  type RepoPackage,
  sizeOf,
  workersOnly,
  writeProject,
} from "./projects.js";
import { browserSkipReason, devUiTour } from "./starter-ui.js";
import { publishDryRun, wranglerDryRun } from "./tarball-checks.js";

const ROOT = join(import.meta.dirname, "../..");
const STARTER = join(ROOT, "packages/create-baton-agents");
// SAFETY: this repo's own package.json; test/unit/entries checks the fields read here.
const repoPkg = JSON.parse(await readFile(join(ROOT, "package.json"), "utf8")) as RepoPackage;
const typescriptVersion = JSON.parse(
  await readFile(join(ROOT, "node_modules/typescript/package.json"), "utf8"),
).version as string;

/** What `npm pack --json` says of one tarball. */
interface Packed {
  filename: string;
  size: number;
  unpackedSize: number;
  entryCount: number;
  files: { path: string }[];
}

/** `npm pack` of the package in `dir` into `into` (its `prepack` builds first). */
async function pack(dir: string, into: string): Promise<Packed & { file: string }> {
  const ran = await run("npm", ["pack", "--json", "--pack-destination", into], dir);
  expect(ran.code, ran.stderr).toBe(0);
  const [packed] = JSON.parse(ran.stdout.slice(ran.stdout.indexOf("["))) as Packed[];
  if (!packed) throw new Error(`npm pack in ${dir} reported no tarball.`);
  return { ...packed, file: join(into, packed.filename) };
}

/**
 * tsc's errors in Baton's declarations or the project's own files. With `skipLibCheck: false` tsc also
 * checks every dependency's declarations, and some of the AI SDK's need the DOM library or @types/node and
 * @types/json-schema, which neither tsconfig has; those are the dependencies' to fix, not Baton's.
 */
function ownErrors(ran: Ran): string[] {
  const lines = ran.stdout.split("\n").filter((l) => /error TS\d+/.test(l));
  return lines.filter(
    (l) => !l.startsWith("node_modules/") || l.startsWith("node_modules/@baton-agents/core/"),
  );
}

const thirdPartyErrors = (ran: Ran): number =>
  ran.stdout.split("\n").filter((l) => /error TS\d+/.test(l)).length - ownErrors(ran).length;

let work: string;
/** The checkout's README before `npm pack` (whose `prepack` rewrites it for the registry, `postpack` restores it). */
let readmeBefore: string;
let core: Packed & { file: string };
let starter: Packed & { file: string };
let consumer: string;
let coreOnly: string;
let coreOnlyInstall: Installed;
let app: string;
/** One project per set of optional peers the entries name: the peers, the entries, the folder. */
let groups: { peers: string[]; entries: string[]; dir: string }[];
const dev: DevServer[] = [];
const started = Date.now();
const optionalPeers = Object.keys(repoPkg.peerDependenciesMeta).filter(
  (name) => repoPkg.peerDependenciesMeta[name]?.optional,
);

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "baton-pack-"));
  readmeBefore = await readFile(join(ROOT, "README.md"), "utf8");
  core = await pack(ROOT, work);
  starter = await pack(STARTER, work);

  // Every peer, and the tools to type-check with: the project the type checks and the Node example run in.
  consumer = join(work, "consumer");
  await writeProject(consumer, core.file, repoPkg, optionalPeers, {
    typescript: typescriptVersion,
    "@cloudflare/workers-types": repoPkg.devDependencies["@cloudflare/workers-types"] ?? "*",
    "@types/node": repoPkg.devDependencies["@types/node"] ?? "*",
  });
  const entries = entriesOf(repoPkg).map((e) => e.entry);
  await writeFile(join(consumer, "worker.ts"), workerTs(entries));
  await writeFile(
    join(consumer, "entries.ts"),
    nodeEntriesTs(entries.filter((entry) => !workersOnly(entry))),
  );
  await writeFile(join(consumer, "app.mjs"), APP_MJS);
  for (const skip of [true, false]) {
    const suffix = skip ? "" : "-strict-libs";
    await writeFile(join(consumer, `tsconfig.workers${suffix}.json`), JSON.stringify(workersTsconfig(skip)));
    await writeFile(join(consumer, `tsconfig.node${suffix}.json`), JSON.stringify(nodeTsconfig(skip)));
  }

  // `npm install @baton-agents/core zod` and nothing else.
  coreOnly = join(work, "core-only");
  await writeProject(coreOnly, core.file, repoPkg, []);
  await writeFile(join(coreOnly, "turn.mjs"), CORE_ONLY_MJS);
  groups = peerGroups(repoPkg)
    .filter((group) => group.peers.length > 0)
    .map((group, i) => ({ ...group, dir: join(work, `peers-${i}`) }));
  for (const group of groups) await writeProject(group.dir, core.file, repoPkg, group.peers);

  // `npm create baton-agents@latest app` as npm runs it: the starter's bin from its tarball.
  const created = await run(
    "npm",
    [
      "exec",
      "--yes",
      `--package=${starter.file}`,
      "--",
      "create-baton-agents",
      "app",
      "--baton-spec",
      core.file,
    ],
    work,
  );
  expect(created.code, created.stderr).toBe(0);
  app = join(work, "app");

  const installs = await Promise.all([consumer, coreOnly, app, ...groups.map((g) => g.dir)].map(install));
  for (const installed of installs) expect(installed.code, installed.stderr).toBe(0);
  coreOnlyInstall = installs[1] ?? { code: 1, stderr: "", added: undefined };
}, 900_000);

afterAll(async () => {
  await Promise.all(dev.map((server) => server.stop()));
  console.log(
    `package test: core ${core?.size} B packed / ${core?.entryCount} files, starter ${starter?.size} B / ${starter?.entryCount} files, ${((Date.now() - started) / 1000).toFixed(0)} s`,
  );
  if (work) await rm(work, { recursive: true, force: true });
}, 60_000);

describe("the @baton-agents/core tarball", () => {
  it("holds the built entries, their sources for the maps, README, CHANGELOG, LICENSE and NOTICE, and no tests, benches or docs", () => {
    const paths = core.files.map((f) => f.path);
    for (const [entry, target] of Object.entries<string | Record<string, string>>(repoPkg.exports)) {
      if (typeof target === "string") continue;
      for (const file of Object.values(target)) expect(paths, entry).toContain(file.slice(2));
    }
    const top = ["package.json", "README.md", "CHANGELOG.md", "LICENSE", "NOTICE"];
    expect(paths).toEqual(expect.arrayContaining(top));
    const unexpected = paths.filter((p) => !/^(dist|src)\//.test(p) && !top.includes(p));
    expect(unexpected).toEqual([]);
    expect(paths.filter((p) => /(^|\/)(test|bench|docs|scripts|packages)\//.test(p))).toEqual([]);
    expect(paths.filter((p) => /\.(png|jpe?g|gif|webp)$/.test(p))).toEqual([]);
    // The demo Worker is this repo's, not the package's.
    expect(paths).not.toContain("src/worker.ts");
    expect(paths).not.toContain("src/demo/app.ts");
  });

  it("is Apache-2.0, with a NOTICE of the texts it holds from ADK, and says where its repository and bins are", async () => {
    const installed = join(consumer, "node_modules/@baton-agents/core");
    const pkg = JSON.parse(await readFile(join(installed, "package.json"), "utf8"));
    const { owner, name } = githubRepository(pkg.repository.url);
    expect(pkg).toMatchObject({ license: "Apache-2.0", publishConfig: { access: "public" } });
    expect(pkg.homepage).toMatch(new RegExp(`^https://github\\.com/${owner}/${name}\\b`));
    expect(pkg.bugs.url).toBe(`https://github.com/${owner}/${name}/issues`);
    expect(pkg.keywords).toEqual(expect.arrayContaining(["adk", "cloudflare-workers", "a2a", "mcp"]));
    expect(await readFile(join(installed, "LICENSE"), "utf8")).toMatch(/Apache License\s+Version 2\.0/);
    const notice = await readFile(join(installed, "NOTICE"), "utf8");
    expect(notice).toContain("Agent Development Kit");
    expect(notice).toContain("src/transfer/transfer-instruction.ts");
    const paths = core.files.map((f) => f.path);
    for (const bin of Object.values<string>(pkg.bin)) expect(paths).toContain(bin.replace(/^\.\//, ""));
  });

  it("gives the registry a README with no relative link or image, and leaves the checkout's README as it was", async () => {
    const packed = await readFile(join(consumer, "node_modules/@baton-agents/core/README.md"), "utf8");
    expect(relativeTargets(packed)).toEqual([]);
    const { owner, name } = githubRepository(repoPkg.repository.url);
    const ours = [
      ...packed.matchAll(/\]\((https:\/\/(?:github\.com|raw\.githubusercontent\.com)\/[^)]+)\)/g),
    ];
    expect(ours.length).toBeGreaterThan(0);
    for (const [, url] of ours) expect(url).toMatch(new RegExp(`^https://[^/]+/${owner}/${name}/`));
    expect(await readFile(join(ROOT, "README.md"), "utf8")).toBe(readmeBefore);
  });

  it("passes npm publish --dry-run, as a public scoped package", async () => {
    const published = await publishDryRun(core.file, work);
    expect(published.code, published.output).toBe(0);
    expect(published.output).toContain("+ @baton-agents/core@");
    expect(published.output).toMatch(/with tag latest and public access/);
    expect(published.output).not.toMatch(/auto-corrected|npm error/);
  }, 120_000);

  it("maps the built JavaScript back to sources that ship beside it", async () => {
    const map = JSON.parse(
      await readFile(join(consumer, "node_modules/@baton-agents/core/dist/runner/runner.js.map"), "utf8"),
    );
    expect(map.sources).toEqual(["../../src/runner/runner.ts"]);
    const source = await readFile(
      join(consumer, "node_modules/@baton-agents/core/src/runner/runner.ts"),
      "utf8",
    );
    expect(source).toContain("export class Runner");
  });
});

describe("a project that installs the tarball with every optional peer", () => {
  for (const [kind, config] of [
    ["a Worker under a Workers tsconfig", "tsconfig.workers"],
    ["a Node script and every Node-usable entry under a nodenext tsconfig", "tsconfig.node"],
  ] as const) {
    it(`type-checks ${kind} with skipLibCheck on: 0 errors`, async () => {
      const ran = await run("npx", ["tsc", "-p", `${config}.json`, "--pretty", "false"], consumer);
      expect(ran.stdout.split("\n").filter((l) => l.includes("error TS"))).toEqual([]);
      expect(ran.code).toBe(0);
    }, 300_000);

    it(`type-checks ${kind} with skipLibCheck off: 0 errors in Baton's declarations or the project`, async () => {
      const ran = await run(
        "npx",
        ["tsc", "-p", `${config}-strict-libs.json`, "--pretty", "false"],
        consumer,
      );
      expect(ownErrors(ran)).toEqual([]);
      console.log(
        `${config} with skipLibCheck off: ${thirdPartyErrors(ran)} errors in dependencies' declarations`,
      );
    }, 300_000);
  }

  it("runs the Node example of docs/sessions-and-turns.md with plain node: the root hands the turn to billing, which calls its tool", async () => {
    const ran = await run(process.execPath, ["app.mjs"], consumer);
    expect(ran.code, ran.stderr).toBe(0);
    const events = ran.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    expect(events.map((e) => e.author)).toEqual(["root", "root", "billing", "billing", "billing"]);
    expect(events[0]).toMatchObject({ call: "transfer_to_agent" });
    expect(events[1]).toMatchObject({ transfer: "billing" });
    expect(events[2]).toMatchObject({ call: "lookup_invoice" });
    expect(events.at(-1)?.text).toContain("paid");
    expect(events.every((e) => e.frozen)).toBe(true);
  }, 120_000);
});

describe("a project that installs only @baton-agents/core and zod", () => {
  it("gets none of the optional peers, and at most 40 packages", async () => {
    const packages = await installedPackages(coreOnly);
    const other = await dependedOn(coreOnly, "@baton-agents/core");
    expect(packages.filter((name) => optionalPeers.includes(name) && !other.has(name))).toEqual([]);
    const { bytes, files } = await sizeOf(join(coreOnly, "node_modules"));
    console.log(
      `core-only install: npm added ${coreOnlyInstall.added} packages, ${(bytes / 2 ** 20).toFixed(1)} MiB in ${files} files`,
    );
    expect(coreOnlyInstall.added).toBeLessThanOrEqual(40);
  });

  it("runs a turn with plain node: the root hands it to billing, which calls its tool", async () => {
    const ran = await run(process.execPath, ["turn.mjs"], coreOnly);
    expect(ran.code, ran.stderr).toBe(0);
    const authors = ran.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line).author);
    expect(authors).toEqual(["root", "root", "billing", "billing", "billing"]);
  }, 120_000);

  it("bundles every entry that names no peer", async () => {
    const bare = entriesOf(repoPkg).filter((e) => e.peers.length === 0);
    expect(bare.map((e) => e.entry)).toContain(".");
    for (const { entry } of bare) expect(await bundleErrors(coreOnly, entry), entry).toEqual([]);
  }, 120_000);
});

describe("each entry with only the optional peers it names", () => {
  it("bundles, and the Node-usable ones import in plain node", async () => {
    expect(groups.length).toBeGreaterThan(0);
    for (const group of groups) {
      const installed = await installedPackages(group.dir);
      const other = await dependedOn(group.dir, "@baton-agents/core");
      const peersHere = optionalPeers.filter((name) => installed.includes(name) && !other.has(name));
      expect(peersHere.filter((name) => !group.peers.includes(name))).toEqual([]);
      for (const entry of group.entries) {
        expect(await bundleErrors(group.dir, entry), `${entry} with ${group.peers.join(", ")}`).toEqual([]);
        if (workersOnly(entry)) continue;
        const specifier = `@baton-agents/core${entry.slice(1)}`;
        const ran = await run(
          process.execPath,
          ["--input-type=module", "-e", `await import(${JSON.stringify(specifier)});`],
          group.dir,
        );
        expect(ran.code, `${entry}: ${ran.stderr}`).toBe(0);
      }
    }
  }, 300_000);

  it("fails to bundle without them, naming the missing package", async () => {
    const errors = await bundleErrors(coreOnly, "./mcp");
    expect(errors.join("\n")).toMatch(/@modelcontextprotocol\/(client|server)|hono/);
  }, 120_000);
});

describe("a project made by create-baton-agents", () => {
  it("holds no test of the starter's own, and its LICENSE, NOTICE and template", () => {
    const paths = starter.files.map((f) => f.path).sort();
    expect(paths.filter((p) => !/^(bin|lib|template)\//.test(p))).toEqual([
      "LICENSE",
      "NOTICE",
      "README.md",
      "package.json",
    ]);
    expect(paths).toContain("template/wrangler.toml");
  });

  it("passes npm publish --dry-run, Apache-2.0 like the core package", async () => {
    const published = await publishDryRun(starter.file, work);
    expect(published.code, published.output).toBe(0);
    expect(published.output).toContain("+ create-baton-agents@");
    expect(published.output).not.toMatch(/auto-corrected|npm error/);
    const pkg = JSON.parse(await readFile(join(STARTER, "package.json"), "utf8"));
    expect(pkg.license).toBe("Apache-2.0");
    expect(pkg.repository).toMatchObject({
      url: repoPkg.repository.url,
      directory: "packages/create-baton-agents",
    });
  }, 120_000);

  it("type-checks", async () => {
    const ran = await run("npm", ["run", "typecheck"], app);
    expect(ran.code, ran.stdout + ran.stderr).toBe(0);
  }, 300_000);

  it("passes its own npm test: its turns inside workerd", async () => {
    // Its first turn imports the whole Worker in workerd: over its own timeout when the machine is busy
    // (twice 60 s on a 2-core machine at load 16), so this run gives each test five minutes.
    const ran = await run("npm", ["test", "--", "--testTimeout=300000"], app);
    expect(ran.code, ran.stdout + ran.stderr).toBe(0);
    // Vitest colours its summary when it thinks it may: read it without the escapes.
    const summary = stripVTControlCharacters(ran.stdout);
    expect(summary).toMatch(/Tests\s+\d+ passed/);
    expect(summary).not.toMatch(/failed/);
  }, 600_000);

  it("passes npm run eval on its sample eval set, and fails it (exit 1) once an expected tool argument changes", async () => {
    const ran = await run("npm", ["run", "eval"], app);
    expect(ran.code, ran.stdout + ran.stderr).toBe(0);
    expect(ran.stdout).toMatch(/^PASS {2}invoice_42$/m);
    expect(ran.stdout).toContain("eval set billing: 2 of 2 cases passed");

    const set = JSON.parse(await readFile(join(app, "evals/billing.evalset.json"), "utf8"));
    set.eval_cases[0].conversation[0].intermediate_data.tool_uses[1].args.number = "43";
    await writeFile(join(work, "edited.evalset.json"), JSON.stringify(set));
    const edited = await run("npx", ["baton-eval", "src/app.ts", join(work, "edited.evalset.json")], app);
    expect(edited.stdout).toMatch(/^FAIL {2}invoice_42$/m);
    expect(edited.code).toBe(1);
  }, 300_000);

  it("builds what a deploy uploads with wrangler deploy --dry-run: every binding, zod's English only, and its size", async () => {
    const built = await wranglerDryRun(app, join(work, "app-dist"));
    expect(built.code, built.output).toBe(0);
    for (const binding of [
      "env.TURNS (app-turns)",
      "env.A2A_PUSH (app-a2a-push)",
      "env.ARTIFACTS (app-artifacts)",
    ])
      expect(built.output).toContain(binding);
    expect(built.output).toMatch(/env\.AGENT_CARDS\s+KV Namespace/);
    expect(built.locales).toEqual(["node_modules/zod/v4/locales/en.js"]);
    console.log(`starter Worker (wrangler deploy --dry-run): ${built.kib} KiB, ${built.gzipKiB} KiB gzip`);
    expect(built.gzipKiB).toBeLessThan(160);
  }, 300_000);

  it("serves ADK's dev UI and a /run turn from npm run dev", async () => {
    const server = await startDev(app);
    dev.push(server);
    const post = (path: string, body: unknown) =>
      fetch(`${server.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    expect((await post("/apps/app/users/alice/sessions", { sessionId: "s1" })).status).toBe(200);
    const response = await post("/run", {
      appName: "app",
      userId: "alice",
      sessionId: "s1",
      newMessage: { role: "user", parts: [{ text: "Is invoice 42 paid?" }] },
    });
    expect(response.status).toBe(200);
    const events: { author: string; actions: { transferToAgent?: string } }[] = await response.json();
    expect(events.map((e) => e.author)).toEqual(["concierge", "concierge", "billing", "billing", "billing"]);
    expect(events[1]?.actions.transferToAgent).toBe("billing");
    // `predev` (baton-dev-ui) laid ADK's dev UI out; `/` leads to it.
    const root = await fetch(`${server.url}/`, { redirect: "manual" });
    expect(root.status).toBe(302);
    expect(root.headers.get("location")).toMatch(/\/dev-ui\/$/);
    const ui = await fetch(`${server.url}/dev-ui/`);
    expect(ui.status).toBe(200);
    expect(await ui.text()).toContain("<app-root");
    expect(await (await fetch(`${server.url}/list-apps`)).json()).toEqual(["app"]);
  }, 300_000);

  it.skipIf(browserSkipReason() !== "")(
    "shows the project's agents in the dev UI (Chromium): the turn, its trace without a Performance warning, the artifact, an eval run",
    async () => {
      const [server] = dev;
      if (!server) throw new Error("npm run dev is not running: the test before this one failed.");
      const tour = await devUiTour(server.url, "app", join(work, "dev-ui.png"));
      expect(tour.traced).toEqual(["concierge", "billing", "transfer_to_agent", "lookup_invoice"]);
      expect(tour.modelCalls).toBe(3);
      // The transfer gives billing's first model call another instruction than the concierge's; the UI as
      // baton-dev-ui serves it compares each agent's calls with its own (src/cli/instruction-check.ts).
      expect(tour.performanceWarnings).toBe(0);
      expect(tour.artifactShown).toBe(true);
      expect(tour.evalPassed).toBe(true);
      expect(tour.evalFailed).toBe(false);
      expect(tour.pageErrors).toEqual([]);
    },
    300_000,
  );
});
