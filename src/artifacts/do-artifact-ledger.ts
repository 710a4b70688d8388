import { BatonError } from "../core/errors.js";
import type { UserObject } from "../objects/user-object.js";
import { userObjectName } from "../storage/object-names.js";
import { remote } from "../storage/rpc-result.js";
import type { ArtifactLedger, LedgerScope } from "./artifact-ledger.js";
import { scopeKey } from "./artifact-ledger-sql.js";

/** The binding the ledger needs: the user objects (wrangler `USERS`), shared with the session store. */
export interface ArtifactLedgerEnv {
  USERS: DurableObjectNamespace<UserObject>;
}

/** Seconds a client waits before saving again when the user's object is busy. */
export const BUSY_RETRY_SECONDS = 1;

/**
 * An error of the object's, as the answer it is: a Durable Object that is overloaded (too many requests
 * queued) or restarting says so (`overloaded`, `retryable`), and that is contention (503 with
 * `Retry-After`), not a failure of the save (decision 048).
 */
function busyOr(error: unknown): unknown {
  const flagged = (flag: string) =>
    typeof error === "object" && error !== null && Reflect.get(error, flag) === true;
  if (!flagged("overloaded") && !flagged("retryable")) return error;
  return new BatonError("storage_busy", "The user's artifact ledger is busy; save again shortly.", {
    cause: error,
    retryAfterSeconds: BUSY_RETRY_SECONDS,
  });
}

/** The artifact ledger in each user's Durable Object (`UserObject`, the one that keeps `user:` state). */
export function durableObjectLedger(env: ArtifactLedgerEnv): ArtifactLedger {
  const user = (scope: LedgerScope) =>
    remote(env.USERS.getByName(userObjectName(scope.appName, scope.userId)));
  const call = async <T>(work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (error) {
      throw busyOr(error);
    }
  };
  return {
    reserve: ({ scope, ...rest }) =>
      call(() => user(scope).reserveArtifact({ ...rest, scope: scopeKey(scope.sessionId) })),
    settle: (scope, filename, version, landed) =>
      call(() => user(scope).settleArtifact(scopeKey(scope.sessionId), filename, version, landed)),
    forget: (scope, filename) =>
      call(() => user(scope).forgetArtifacts(scopeKey(scope.sessionId), filename ?? null)),
  };
}
