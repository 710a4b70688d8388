/** ADK's prefix of the sessions eval runs make (`cli_eval.EVAL_SESSION_ID_PREFIX`); session lists hide them. */
export const EVAL_SESSION_ID_PREFIX = "___eval___session___";
/** The user an eval case runs as when it names none (ADK's `test_user_id`). */
export const DEFAULT_EVAL_USER_ID = "test_user_id";
