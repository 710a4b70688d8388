/**
 * Config paths are `/`-separated keys of the files map, relative to one root. A `config_path` is
 * relative to the file that names it (as in ADK); it may not be absolute or climb above the root.
 */

const dirOf = (path: string): string => path.split("/").slice(0, -1).join("/");

/** `segments` with `.` dropped and `..` applied; `undefined` when `..` would climb above the root. */
function normalized(segments: readonly string[]): string | undefined {
  const out: string[] = [];
  for (const segment of segments) {
    if (segment === "" || segment === ".") continue;
    if (segment !== "..") out.push(segment);
    else if (out.pop() === undefined) return undefined;
  }
  return out.join("/");
}

/** A files-map key in its canonical form (`./a//b.yaml` → `a/b.yaml`). */
export const canonicalPath = (path: string): string => normalized(path.split(/[\\/]/)) ?? path;

/** The files-map key `ref` names from `from`, or why it cannot name one. */
export function resolveConfigPath(from: string, ref: string): { path: string } | { problem: string } {
  if (ref.startsWith("/") || /^[A-Za-z]:[\\/]/.test(ref)) {
    return { problem: `absolute paths are not allowed (got "${ref}"); give a path relative to ${from}` };
  }
  const path = normalized([...dirOf(from).split("/"), ...ref.split(/[\\/]/)]);
  if (path === undefined || path === "") {
    return { problem: `"${ref}" resolves outside the config files' root` };
  }
  return { path };
}
