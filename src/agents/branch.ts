/**
 * Whether an event on `eventBranch` is visible to an agent on `branch`: either has none, they are equal,
 * or the event's branch is an ancestor (ADK's branch isolation; parallel siblings never see each other).
 */
export const onBranch = (eventBranch: string | undefined, branch: string | undefined): boolean =>
  !eventBranch || !branch || branch === eventBranch || branch.startsWith(`${eventBranch}.`);

/**
 * Whether an event of conversation scope `eventScope` is visible to an agent running in `scope` (ADK 2.x
 * `isolation_scope`): an untagged event is visible to all; a tagged one only within its own scope.
 */
export const inScope = (eventScope: string | undefined, scope: string | undefined): boolean =>
  eventScope === undefined || eventScope === scope;
