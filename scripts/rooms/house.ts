/**
 * The room picture of `src/`, computed from each file's imports (TypeScript's parser, so `import type`
 * and type-only specifiers are told apart from values). A room is a top-level folder of `src/`; the files
 * directly in `src/` are the package's entries, room `(entries)`.
 */
import { posix } from "node:path";
import ts from "typescript";

export interface SourceFile {
  /** Relative to `src/`, with `/`. */
  path: string;
  text: string;
}

/** One import of one file: whom, and whether it brings values (a type-only import is erased). */
export interface ImportEdge {
  from: string;
  to: string;
  kind: "value" | "type" | "lazy";
}

export interface HouseReport {
  text: string;
  mermaid: string;
  problems: string[];
  edges: ImportEdge[];
}

/** The files of the demo Worker: the only ones outside `demo/` that may import it. */
const DEMO_WORKER = new Set(["worker.ts"]);
const MAX_LINES = 400;
const MEDIAN_TARGET = 100;
export const ENTRIES_ROOM = "(entries)";

export const roomOf = (path: string): string => {
  const slash = path.indexOf("/");
  return slash < 0 ? ENTRIES_ROOM : path.slice(0, slash);
};

function importsOf(file: SourceFile, known: Set<string>): ImportEdge[] {
  const source = ts.createSourceFile(file.path, file.text, ts.ScriptTarget.Latest, false);
  const edges: ImportEdge[] = [];
  const add = (specifier: string, kind: ImportEdge["kind"]) => {
    if (!specifier.startsWith(".")) return;
    const target = posix.normalize(posix.join(posix.dirname(file.path), specifier)).replace(/\.js$/, ".ts");
    const to = known.has(target) ? target : known.has(`${target}/index.ts`) ? `${target}/index.ts` : target;
    edges.push({ from: file.path, to, kind });
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const typeOnly =
        clause !== undefined &&
        (clause.isTypeOnly ||
          (clause.name === undefined &&
            clause.namedBindings !== undefined &&
            ts.isNamedImports(clause.namedBindings) &&
            clause.namedBindings.elements.length > 0 &&
            clause.namedBindings.elements.every((element) => element.isTypeOnly)));
      add(node.moduleSpecifier.text, typeOnly ? "type" : "value");
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      const clause = node.exportClause;
      const typeOnly =
        node.isTypeOnly ||
        (clause !== undefined &&
          ts.isNamedExports(clause) &&
          clause.elements.length > 0 &&
          clause.elements.every((element) => element.isTypeOnly));
      add(node.moduleSpecifier.text, typeOnly ? "type" : "value");
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      add(node.arguments[0].text, "lazy");
    } else if (ts.isImportTypeNode(node)) {
      const argument = node.argument;
      if (ts.isLiteralTypeNode(argument) && ts.isStringLiteral(argument.literal)) {
        add(argument.literal.text, "type");
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return edges;
}

/** Strongly connected components of more than one node (Tarjan), each sorted, as circles of imports. */
export function circles(nodes: Iterable<string>, next: (node: string) => Iterable<string>): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const onStack = new Set<string>();
  const stack: string[] = [];
  const found: string[][] = [];
  let counter = 0;
  const connect = (node: string) => {
    index.set(node, counter);
    low.set(node, counter);
    counter += 1;
    stack.push(node);
    onStack.add(node);
    for (const target of next(node)) {
      if (!index.has(target)) {
        connect(target);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(target) ?? 0));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node) ?? 0, index.get(target) ?? 0));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop();
        if (member === undefined) break;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) found.push(component.sort());
    }
  };
  for (const node of nodes) if (!index.has(node)) connect(node);
  return found;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
};

const lineCount = (text: string): number => text.split("\n").length - (text.endsWith("\n") ? 1 : 0);

export function houseReport(files: SourceFile[]): HouseReport {
  const known = new Set(files.map((file) => file.path));
  const edges = files.flatMap((file) => importsOf(file, known)).filter((edge) => known.has(edge.to));
  const problems: string[] = [];

  const valueNext = new Map<string, string[]>();
  const anyNext = new Map<string, string[]>();
  for (const edge of edges) {
    if (edge.kind === "value") valueNext.set(edge.from, [...(valueNext.get(edge.from) ?? []), edge.to]);
    anyNext.set(edge.from, [...(anyNext.get(edge.from) ?? []), edge.to]);
  }
  const valueCircles = circles(known, (node) => valueNext.get(node) ?? []);
  for (const circle of valueCircles) problems.push(`value import circle: ${circle.join(" → ")}`);
  const typeCircles = circles(known, (node) => anyNext.get(node) ?? []);

  // Room arrows: a value (or lazy) import makes a value arrow; type-only imports a type arrow.
  const roomValue = new Map<string, Set<string>>();
  const roomType = new Map<string, Set<string>>();
  const rooms = new Set(files.map((file) => roomOf(file.path)));
  for (const edge of edges) {
    const from = roomOf(edge.from);
    const to = roomOf(edge.to);
    if (from === to) continue;
    const table = edge.kind === "type" ? roomType : roomValue;
    const targets = table.get(from) ?? new Set<string>();
    targets.add(to);
    table.set(from, targets);
  }
  for (const [from, targets] of roomValue) {
    for (const to of targets) {
      if (from < to && roomValue.get(to)?.has(from)) {
        const there = edges.filter(
          (e) => e.kind !== "type" && roomOf(e.from) === from && roomOf(e.to) === to,
        );
        const back = edges.filter((e) => e.kind !== "type" && roomOf(e.from) === to && roomOf(e.to) === from);
        problems.push(
          `two-way room imports: ${from} ↔ ${to} (${there.map((e) => `${e.from} → ${e.to}`).join(", ")}; ` +
            `${back.map((e) => `${e.from} → ${e.to}`).join(", ")})`,
        );
      }
    }
  }
  const roomCircles = circles(rooms, (room) => roomValue.get(room) ?? []).filter((c) => c.length > 2);
  for (const circle of roomCircles) problems.push(`room circle of value imports: ${circle.join(", ")}`);

  const demoImports = edges.filter(
    (edge) => roomOf(edge.to) === "demo" && roomOf(edge.from) !== "demo" && !DEMO_WORKER.has(edge.from),
  );
  for (const edge of demoImports)
    problems.push(`imports demo/ outside the demo Worker: ${edge.from} → ${edge.to}`);

  const sizes = files.map((file) => ({ path: file.path, lines: lineCount(file.text) }));
  const over = sizes.filter((size) => size.lines > MAX_LINES).sort((a, b) => b.lines - a.lines);
  for (const size of over) problems.push(`over ${MAX_LINES} lines: ${size.path} (${size.lines})`);
  const medianLines = median(sizes.map((size) => size.lines));
  if (medianLines > MEDIAN_TARGET)
    problems.push(`median file ${medianLines} lines (target ≤ ${MEDIAN_TARGET})`);

  const order = [...rooms].sort();
  const lines: string[] = ["room             files  lines  takes values from ⟶ (types only in brackets)"];
  for (const room of order) {
    const own = sizes.filter((size) => roomOf(size.path) === room);
    const values = [...(roomValue.get(room) ?? [])].sort();
    const typesOnly = [...(roomType.get(room) ?? [])].filter((r) => !values.includes(r)).sort();
    const total = own.reduce((sum, size) => sum + size.lines, 0);
    lines.push(
      `${room.padEnd(16)} ${String(own.length).padStart(5)} ${String(total).padStart(6)}  ${values.join(", ")}` +
        (typesOnly.length > 0 ? ` [${typesOnly.join(", ")}]` : ""),
    );
  }
  const largest = [...sizes].sort((a, b) => b.lines - a.lines)[0];
  lines.push(
    "",
    `files ${sizes.length}, lines ${sizes.reduce((sum, size) => sum + size.lines, 0)}, median ${medianLines}, ` +
      `largest ${largest?.path} (${largest?.lines})`,
    `value import circles: ${valueCircles.length}; circles counting type-only imports: ${typeCircles.length}` +
      (typeCircles.length > 0
        ? ` (${typeCircles.map((c) => `${c.length} files around ${c[0]}`).join("; ")})`
        : ""),
    `two-way room imports: ${problems.filter((p) => p.startsWith("two-way")).length}; imports of demo/ ` +
      `outside the demo Worker: ${demoImports.length}`,
  );

  // The picture: each room one floor above the highest room it takes values from (no circle, so it ends).
  const floors = new Map<string, number>();
  const floorOf = (room: string, seen: Set<string>): number => {
    const known = floors.get(room);
    if (known !== undefined) return known;
    if (seen.has(room)) return 0;
    seen.add(room);
    const below = [...(roomValue.get(room) ?? [])].map((to) => floorOf(to, seen));
    const floor = below.length === 0 ? 0 : Math.max(...below) + 1;
    floors.set(room, floor);
    return floor;
  };
  for (const room of order) floorOf(room, new Set());
  const top = Math.max(...floors.values());
  lines.push("", "floors (a room takes values only from rooms on floors below it):");
  for (let floor = top; floor >= 0; floor -= 1) {
    const here = order.filter((room) => floors.get(room) === floor);
    lines.push(`  ${String(floor).padStart(2)}  ${here.join("  ")}`);
  }

  const id = (room: string) => (room === ENTRIES_ROOM ? "entries" : room);
  const mermaid = ["graph TD"];
  for (const room of order) {
    for (const to of [...(roomValue.get(room) ?? [])].sort()) mermaid.push(`  ${id(room)} --> ${id(to)}`);
  }
  return { text: lines.join("\n"), mermaid: mermaid.join("\n"), problems, edges };
}
