import * as z from "zod";

/**
 * The limits on every id and name that reaches storage or a URL, in one place: a maximum length and a
 * character set each. The schemas below are what every boundary uses (HTTP paths and bodies, A2A params,
 * webhook turns and delivery ids), so a refusal always names the limit it broke. Long enough for what
 * clients send (UUIDs, OIDC subjects of up to 255 characters, provider delivery ids), short enough that an
 * id always fits in a URL and a storage key (a 100,000-character id once made a session nobody could read
 * or delete: the platform answered 431 before the Worker ran).
 */
export interface IdLimit {
  /** How errors and docs name it: "session id". */
  readonly label: string;
  readonly maxLength: number;
  /** The character set, in words. */
  readonly charset: string;
  readonly pattern: RegExp;
}

/** Names a developer chooses (apps, hooks): letters, digits, `_`, `-`, `.`, not starting with `-` or `.`. */
const NAME = {
  charset: 'letters, digits, "_", "-" and "." (not first)',
  pattern: /^[A-Za-z0-9_][A-Za-z0-9_.-]*$/,
};

/**
 * Ids clients choose: any printable characters but whitespace, `/` and `\` (an id is one URL path segment),
 * and not `.` or `..` (which URLs resolve away). Control characters and lone surrogates are refused too.
 */
const ID = {
  charset: 'printable characters other than whitespace, "/" and "\\", and not "." or ".."',
  pattern: /^(?!\.{1,2}$)[^\s/\\\p{Cc}\p{Cs}]+$/u,
};

const limit = (label: string, maxLength: number, kind: typeof NAME | typeof ID): IdLimit => ({
  label,
  maxLength,
  ...kind,
});

/** Every limit, by what it limits. docs/architecture.md ("Limits") lists them. */
export const ID_LIMITS = {
  appName: limit("app name", 128, NAME),
  hookName: limit("hook name", 64, NAME),
  /** OIDC subjects are at most 255 characters; Baton's own callers' ids add a short prefix. */
  userId: limit("user id", 320, ID),
  sessionId: limit("session id", 128, ID),
  /** An A2A context is a session: the same limit. */
  contextId: limit("context id", 128, ID),
  /** Baton's task ids are a UUID, `:`, then the context id. */
  taskId: limit("task id", 192, ID),
  messageId: limit("message id", 128, ID),
  artifactName: limit("artifact name", 256, ID),
  deliveryId: limit("delivery id", 256, ID),
  /** An A2A push notification config's id (client-chosen, or a UUID). */
  pushConfigId: limit("push config id", 128, ID),
} as const satisfies Record<string, IdLimit>;

/** Why `value` breaks `limit`, naming the limit; `null` when it keeps it. */
export function idProblem(limit: IdLimit, value: string): string | null {
  if (value.length === 0) return `a ${limit.label} cannot be empty`;
  if (value.length > limit.maxLength)
    return `a ${limit.label} is at most ${limit.maxLength} characters (this one has ${value.length})`;
  if (!limit.pattern.test(value)) return `a ${limit.label} may only hold ${limit.charset}`;
  return null;
}

/** A zod string that keeps `limit`; its issue names the limit. */
export const idSchema = (limit: IdLimit) =>
  z.string().superRefine((value, ctx) => {
    const problem = idProblem(limit, value);
    if (problem !== null) ctx.addIssue({ code: "custom", message: problem });
  });

export const AppNameSchema = idSchema(ID_LIMITS.appName);
export const UserIdSchema = idSchema(ID_LIMITS.userId);
export const SessionIdSchema = idSchema(ID_LIMITS.sessionId);
