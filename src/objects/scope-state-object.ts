import { DurableObject } from "cloudflare:workers";
import type { StateMap } from "../core/state.js";
import { migrate } from "../storage/sql.js";
import { readState, writeState } from "../storage/state-table.js";

/** A shared state scope: keys stored without their `app:`/`user:` prefix. */
export abstract class ScopeStateObject extends DurableObject {
  constructor(ctx: DurableObjectState, env: Cloudflare.Env, schema: readonly string[]) {
    super(ctx, env);
    void ctx.blockConcurrencyWhile(async () => migrate(ctx.storage, schema));
  }

  /** Merges `delta` key by key and returns the whole scope state. An empty delta is a plain read. */
  merge(delta: StateMap): StateMap {
    if (Object.keys(delta).length > 0)
      this.ctx.storage.transactionSync(() => writeState(this.ctx.storage.sql, delta));
    return readState(this.ctx.storage.sql);
  }
}
