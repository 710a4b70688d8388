/** Where a served tool's task keeps its outcome and creation time in its (A2A) metadata (decision 057). */
export const RESULT_KEY = "mcp_result";
export const ERROR_KEY = "mcp_error";
export const CREATED_KEY = "mcp_created_at";
