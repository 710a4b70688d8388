/**
 * Renders a JSON value the way Python's `repr` renders a dict (single quotes, `None`, `True`), as ADK's
 * "For context:" lines do (ADK-SEMANTICS §3.6, case A10). Keeps transcripts comparable with Python's.
 */
export function pyRepr(value: unknown): string {
  if (value === null || value === undefined) return "None";
  if (value === true) return "True";
  if (value === false) return "False";
  if (typeof value === "number") return String(value);
  if (typeof value === "string") return quote(value);
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(", ")}]`;
  if (typeof value === "object") {
    const entries = Object.entries(value).map(([k, v]) => `${quote(k)}: ${pyRepr(v)}`);
    return `{${entries.join(", ")}}`;
  }
  return String(value);
}

function quote(text: string): string {
  const escaped = text.replace(/\\/g, "\\\\").replace(/\n/g, "\\n");
  if (!escaped.includes("'")) return `'${escaped}'`;
  if (!escaped.includes('"')) return `"${escaped}"`;
  return `'${escaped.replace(/'/g, "\\'")}'`;
}
