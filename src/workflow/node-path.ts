/**
 * Node paths and branches as ADK 2.x writes them. A node path joins segments with `/` from the outermost
 * workflow (`triage/classify`; a run scheduled with `ctx.runNode` gets `@<runId>`: `triage/worker@2`), as ADK
 * Python and the dev UI read it. A branch joins segments with `.` (`draft@1.review@1`), as history filters it.
 */

/** The path of `name` under `parentPath` (`""` is the root: the path is the name alone). */
export const childPath = (parentPath: string, name: string): string =>
  parentPath === "" ? name : `${parentPath}/${name}`;

/** A path segment without its run id: `worker@2` → `worker`. */
export const segmentName = (segment: string): string => {
  const at = segment.indexOf("@");
  return at < 0 ? segment : segment.slice(0, at);
};

/** The node name at the end of a path: `triage/worker@2` → `worker`. */
export const leafName = (path: string): string => segmentName(path.slice(path.lastIndexOf("/") + 1));

/** The first segment's name: the outermost workflow of the path. */
export const rootName = (path: string): string => {
  const slash = path.indexOf("/");
  return segmentName(slash < 0 ? path : path.slice(0, slash));
};

/** The name of the direct child of `parentPath` that `path` is, or `undefined` when it is not one. */
export function directChildName(path: string, parentPath: string): string | undefined {
  const prefix = `${parentPath}/`;
  if (!path.startsWith(prefix)) return undefined;
  const rest = path.slice(prefix.length);
  return rest.includes("/") ? undefined : segmentName(rest);
}

/** Whether `path` is `ancestor` or below it. */
export const isAtOrBelow = (path: string, ancestor: string): boolean =>
  path === ancestor || path.startsWith(`${ancestor}/`);

/** A fan-out branch: `name@runId` appended to the parent's branch with `.`. */
export const subBranch = (branch: string | undefined, name: string, runId: string): string =>
  branch ? `${branch}.${name}@${runId}` : `${name}@${runId}`;

/** The longest common leading run of branch segments (a join runs on what its inputs share). */
export function commonBranch(branches: readonly string[]): string {
  const split = branches.map((b) => (b ? b.split(".") : []));
  const first = split[0] ?? [];
  let n = 0;
  while (n < first.length && split.every((s) => s[n] === first[n])) n++;
  return first.slice(0, n).join(".");
}
