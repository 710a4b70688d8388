import { type Remote, remote } from "../session/rpc-result.js";
import type { TurnObject } from "./turn-object.js";
import type { TurnOrigin } from "./turn-record.js";

/** The binding that holds turn objects (wrangler `durable_objects.bindings`). */
export type TurnNamespace = DurableObjectNamespace<TurnObject>;

/** Turn objects by delivery and by turn id. A turn id is the object's id: `GET /turns/:id` needs nothing else. */
export interface TurnLedger {
  /** The turn id of a delivery: the same delivery of the same source always gets the same one. */
  turnIdOf(appName: string, origin: TurnOrigin, source: string, deliveryId: string): string;
  /** The turn's object, or `null` for an id that is not one of this namespace's. */
  turn(turnId: string): Remote<TurnObject> | null;
}

/** Webhooks keep the names they had before other origins existed, so their turn ids stay the same. */
const sourceKey = (origin: TurnOrigin, source: string) =>
  origin === "webhook" ? source : `${origin}:${source}`;

export function turnLedger(namespace: TurnNamespace): TurnLedger {
  return {
    turnIdOf: (appName, origin, source, deliveryId) =>
      namespace.idFromName(JSON.stringify([appName, sourceKey(origin, source), deliveryId])).toString(),
    turn(turnId) {
      if (!/^[0-9a-f]{64}$/.test(turnId)) return null;
      let id: DurableObjectId;
      try {
        id = namespace.idFromString(turnId);
      } catch {
        // idFromString throws for an id this namespace never issued: to a caller, an unknown turn.
        return null;
      }
      return remote(namespace.get(id));
    },
  };
}
