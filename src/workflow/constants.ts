/** The route of an edge that fires when no other route of its node matched (ADK `DEFAULT_ROUTE`). */
export const DEFAULT_ROUTE = "__DEFAULT__";
/** The entry's name; in edges it is written `"START"`. */
export const START_NAME = "__START__";
