/**
 * Whether an event on `eventBranch` is visible to an agent on `branch`: either has none, they are equal,
 * or the event's branch is an ancestor (ADK's branch isolation; parallel siblings never see each other).
 */
export const onBranch = (eventBranch: string | undefined, branch: string | undefined): boolean =>
  !eventBranch || !branch || branch === eventBranch || branch.startsWith(`${eventBranch}.`);
