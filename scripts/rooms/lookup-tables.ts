/**
 * The lookup tables of `src/` that a key could reach through `Object.prototype` (decision 048): a
 * module-level object literal (`const METHODS = { … }`) read with a key that is not a literal
 * (`METHODS[method]`, `name in METHODS`). A method named `toString` or `__proto__` then finds a function of
 * `Object.prototype`'s, not "no such entry" (an A2A call named `toString` once answered 500). Such a table
 * is a `Map` (or made with `Object.create(null)`); one whose keys are a closed type says so on the line
 * before the read: `// closed key: <why>`.
 */
import { posix } from "node:path";
import ts from "typescript";
import type { SourceFile } from "./house.js";

const CLOSED_KEY = /\/\/ closed key: \S/;

/** `{ … }`, seen through `as`, `satisfies`, parentheses and `Object.freeze(…)`. */
function objectLiteral(node: ts.Expression | undefined): boolean {
  if (node === undefined) return false;
  if (ts.isObjectLiteralExpression(node)) return true;
  if (ts.isAsExpression(node) || ts.isSatisfiesExpression(node) || ts.isParenthesizedExpression(node))
    return objectLiteral(node.expression);
  if (ts.isCallExpression(node) && node.expression.getText() === "Object.freeze")
    return objectLiteral(node.arguments[0]);
  return false;
}

const isLiteralKey = (node: ts.Expression): boolean =>
  ts.isStringLiteral(node) || ts.isNumericLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node);

interface Parsed {
  file: SourceFile;
  source: ts.SourceFile;
  /** Module-level consts made of an object literal. */
  tables: Set<string>;
  /** Local name → the file and exported name it was imported as. */
  imports: Map<string, { path: string; name: string }>;
}

function parse(file: SourceFile): Parsed {
  const source = ts.createSourceFile(file.path, file.text, ts.ScriptTarget.Latest, true);
  const tables = new Set<string>();
  const imports = new Map<string, { path: string; name: string }>();
  for (const statement of source.statements) {
    if (ts.isVariableStatement(statement))
      for (const declaration of statement.declarationList.declarations)
        if (ts.isIdentifier(declaration.name) && objectLiteral(declaration.initializer))
          tables.add(declaration.name.text);
    if (!ts.isImportDeclaration(statement) || !ts.isStringLiteral(statement.moduleSpecifier)) continue;
    const specifier = statement.moduleSpecifier.text;
    const bindings = statement.importClause?.namedBindings;
    if (!specifier.startsWith(".") || bindings === undefined || !ts.isNamedImports(bindings)) continue;
    const path = posix.normalize(posix.join(posix.dirname(file.path), specifier)).replace(/\.js$/, ".ts");
    for (const element of bindings.elements)
      imports.set(element.name.text, { path, name: (element.propertyName ?? element.name).text });
  }
  return { file, source, tables, imports };
}

/** Every read of a table by a key that is not a literal, as `path:line: expression`. */
export function prototypeReachableLookups(files: readonly SourceFile[]): string[] {
  const parsed = files.map(parse);
  const byPath = new Map(parsed.map((p) => [p.file.path, p]));
  const isTable = (p: Parsed, name: string): boolean => {
    if (p.tables.has(name)) return true;
    const imported = p.imports.get(name);
    return imported !== undefined && (byPath.get(imported.path)?.tables.has(imported.name) ?? false);
  };
  const found: string[] = [];
  for (const p of parsed) {
    const lines = p.file.text.split("\n");
    const report = (node: ts.Node) => {
      const line = p.source.getLineAndCharacterOfPosition(node.getStart(p.source)).line;
      if (CLOSED_KEY.test(lines[line - 1] ?? "")) return;
      found.push(`${p.file.path}:${line + 1}: ${node.getText(p.source)}`);
    };
    const visit = (node: ts.Node) => {
      if (
        ts.isElementAccessExpression(node) &&
        ts.isIdentifier(node.expression) &&
        !isLiteralKey(node.argumentExpression) &&
        isTable(p, node.expression.text)
      )
        report(node);
      if (
        ts.isBinaryExpression(node) &&
        node.operatorToken.kind === ts.SyntaxKind.InKeyword &&
        ts.isIdentifier(node.right) &&
        !isLiteralKey(node.left) &&
        isTable(p, node.right.text)
      )
        report(node);
      ts.forEachChild(node, visit);
    };
    visit(p.source);
  }
  return found;
}
