/**
 * The public API report: one `api/<entry>.api.txt` per package.json `exports` entry, listing every export
 * with its kind and signature (members of classes and interfaces included, inherited ones too), as the
 * TypeScript checker sees the sources the build compiles. `npm run api:report` writes it; the unit test
 * test/unit/entries/api-report.test.ts fails when the sources' surface differs from the committed files,
 * so a change to a public export is made on purpose, with the report (and the CHANGELOG) beside it.
 *
 * Written here rather than with API Extractor: it needs one config and one run per entry point, and its
 * report format tracks its own TypeScript release; this is one program over every entry.
 */
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
export const API_DIR = join(ROOT, "api");
const FORMAT = ts.TypeFormatFlags.NoTruncation | ts.TypeFormatFlags.UseAliasDefinedOutsideCurrentScope;

/** `api/<file>` for an entry: `.` is `index`, `./models/openai` is `models-openai`. */
export const reportFile = (entry: string): string =>
  `${entry === "." ? "index" : entry.slice(2).replaceAll("/", "-")}.api.txt`;

const oneLine = (text: string): string => text.replace(/\s+/g, " ").trim();

/** The program over the build's entries, with the build's options. */
function buildProgram(): ts.Program {
  const parsed = ts.getParsedCommandLineOfConfigFile(join(ROOT, "tsconfig.build.json"), undefined, {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, "\n"));
    },
  });
  if (!parsed) throw new Error("tsconfig.build.json could not be read.");
  return ts.createProgram({ rootNames: parsed.fileNames, options: { ...parsed.options, noEmit: true } });
}

const SOURCES = join(ROOT, "src");

const isPrivate = (symbol: ts.Symbol): boolean =>
  symbol.name.startsWith("#") ||
  (symbol.declarations ?? []).some((d) => (ts.getCombinedModifierFlags(d) & ts.ModifierFlags.Private) !== 0);

/**
 * Members Baton declares: those inherited from the platform's or a library's types (Error's `stack`,
 * `captureStackTrace`) differ between environments and are theirs to change, not Baton's.
 */
const declaredHere = (symbol: ts.Symbol): boolean =>
  (symbol.declarations ?? []).some((d) => resolve(d.getSourceFile().fileName).startsWith(SOURCES));

/** One member line: a signature's own text where it has one, else the checker's type. */
function memberLines(checker: ts.TypeChecker, symbol: ts.Symbol, at: ts.Node): string[] {
  const decl = symbol.declarations?.[0];
  if (
    decl &&
    (ts.isPropertySignature(decl) || ts.isMethodSignature(decl) || ts.isIndexSignatureDeclaration(decl))
  )
    return [oneLine(decl.getText())];
  const type = checker.getTypeOfSymbolAtLocation(symbol, at);
  const optional = symbol.flags & ts.SymbolFlags.Optional ? "?" : "";
  const modifiers = decl ? ts.getCombinedModifierFlags(decl) : 0;
  const prefix = `${modifiers & ts.ModifierFlags.Protected ? "protected " : ""}${modifiers & ts.ModifierFlags.Readonly ? "readonly " : ""}`;
  if (symbol.flags & ts.SymbolFlags.Method)
    return checker
      .getSignaturesOfType(type, ts.SignatureKind.Call)
      .map((s) => `${prefix}${symbol.name}${optional}${checker.signatureToString(s, at, FORMAT)}`);
  return [`${prefix}${symbol.name}${optional}: ${checker.typeToString(type, at, FORMAT)}`];
}

/** The lines describing one export: its kind and signature, then its members indented. */
function describeExport(
  checker: ts.TypeChecker,
  name: string,
  exported: ts.Symbol,
  namesOnly: boolean,
): string[] {
  const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
  const decl = symbol.declarations?.[0];
  const flags = symbol.flags;
  if (namesOnly || !decl) return [`export ${name}`];
  const lines: string[] = [];
  const members = (type: ts.Type, skip: (s: ts.Symbol) => boolean = () => false) =>
    type
      .getProperties()
      .filter((p) => declaredHere(p) && !isPrivate(p) && !skip(p))
      .sort((a, b) => a.name.localeCompare(b.name))
      .flatMap((p) => memberLines(checker, p, decl).map((l) => `  ${l}`));
  if (flags & ts.SymbolFlags.Class) {
    const staticSide = checker.getTypeOfSymbolAtLocation(symbol, decl);
    lines.push(`class ${name}`);
    for (const s of staticSide.getConstructSignatures())
      lines.push(`  new${checker.signatureToString(s, decl, FORMAT)}`);
    lines.push(...members(staticSide, (p) => p.name === "prototype").map((l) => `  static${l.slice(1)}`));
    lines.push(...members(checker.getDeclaredTypeOfSymbol(symbol)));
  } else if (flags & ts.SymbolFlags.Interface) {
    const params = (decl as ts.InterfaceDeclaration).typeParameters?.map((p) => p.getText()).join(", ");
    lines.push(
      `interface ${name}${params ? `<${params}>` : ""}`,
      ...members(checker.getDeclaredTypeOfSymbol(symbol)),
    );
  }
  if (flags & ts.SymbolFlags.TypeAlias) {
    const alias = symbol.declarations?.find(ts.isTypeAliasDeclaration);
    if (alias)
      lines.push(
        oneLine(
          alias
            .getText()
            .replace(/^export\s+/, "")
            .replace(/;$/, ""),
        ),
      );
  }
  if (flags & ts.SymbolFlags.Function) {
    const type = checker.getTypeOfSymbolAtLocation(symbol, decl);
    for (const s of type.getCallSignatures())
      lines.push(`function ${name}${checker.signatureToString(s, decl, FORMAT)}`);
  }
  if (flags & ts.SymbolFlags.Variable)
    lines.push(
      `const ${name}: ${checker.typeToString(checker.getTypeOfSymbolAtLocation(symbol, decl), decl, FORMAT)}`,
    );
  if (flags & ts.SymbolFlags.Enum) lines.push(`enum ${name}`);
  return lines.length > 0 ? lines : [`export ${name}`];
}

/**
 * Each exports entry's report text, keyed by its file name under api/. The zod entries re-export zod's
 * own API, so they list names only: zod's types are zod's surface, not Baton's.
 */
export function apiReports(): Map<string, string> {
  const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
  const program = buildProgram();
  const checker = program.getTypeChecker();
  const reports = new Map<string, string>();
  for (const [entry, target] of Object.entries<string | Record<string, string>>(pkg.exports)) {
    if (typeof target === "string") continue;
    const source = target["baton-source"];
    if (source === undefined) throw new Error(`exports["${entry}"] has no baton-source condition.`);
    const file = program.getSourceFile(resolve(ROOT, source));
    const moduleSymbol = file && checker.getSymbolAtLocation(file);
    if (!moduleSymbol) throw new Error(`${source} is not a module of the build.`);
    const namesOnly = entry.startsWith("./zod/");
    const body = checker
      .getExportsOfModule(moduleSymbol)
      .sort((a, b) => a.name.localeCompare(b.name))
      .flatMap((s) => describeExport(checker, s.name, s, namesOnly));
    const title = `@baton-agents/core${entry.slice(1)}`;
    reports.set(
      reportFile(entry),
      `// ${title}: generated by npm run api:report; do not edit.\n\n${body.join("\n")}\n`,
    );
  }
  return reports;
}

/** Rewrites api/ with the current reports (stale files removed). */
function writeReports(): void {
  const reports = apiReports();
  mkdirSync(API_DIR, { recursive: true });
  for (const file of readdirSync(API_DIR)) if (!reports.has(file)) rmSync(join(API_DIR, file));
  for (const [file, text] of reports) writeFileSync(join(API_DIR, file), text);
  console.log(`api/: ${reports.size} reports written.`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) writeReports();
