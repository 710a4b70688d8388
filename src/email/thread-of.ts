import { type Address, addressParser, type Email } from "postal-mime";
import type { EmailRoute } from "../core/email.js";
import { BatonError } from "../core/errors.js";
import { reservedUserId } from "../core/reserved-users.js";
import type { TurnLedger } from "../webhooks/ledger-port.js";
import { sha256Hex } from "../webhooks/signing.js";

/** Every address of `header` in the message (all its occurrences, groups opened), lower case, in order. */
export function addressesIn(email: Pick<Email, "headers">, header: string): string[] {
  const flat = (boxes: readonly Address[]): string[] =>
    boxes.flatMap((box) =>
      "group" in box && box.group ? flat(box.group) : box.address ? [box.address.trim().toLowerCase()] : [],
    );
  const found = email.headers.filter((h) => h.key === header).flatMap((h) => flat(addressParser(h.value)));
  return [...new Set(found)];
}

/** Whether the route's allow-list names `address` (itself, or its `@domain`). */
export const allowedBy = (route: EmailRoute, address: string): boolean =>
  route.senders.allow?.some(
    (entry) => entry === address || entry === `@${address.split("@").pop() ?? ""}`,
  ) === true;

const sessionOf = async (name: string) =>
  `mail-${(await sha256Hex(new Uint8Array(new TextEncoder().encode(name)))).slice(0, 40)}`;

/**
 * The session a message runs in (decision 048): its thread (named by `root`) is the route user's, and the
 * message joins the first of the thread's sessions that every one of its From addresses took part in (From,
 * To or Cc of an earlier message), or one the route's allow-list lets them into; a sender who took part in
 * none starts a session of their own. The thread's first session keeps the name threads always had.
 */
export async function threadSessionOf(
  route: EmailRoute,
  thread: { appName: string; root: string; from: readonly string[]; participants: readonly string[] },
  ledger: Pick<TurnLedger, "joinThread">,
): Promise<string> {
  const { appName, root, from, participants } = thread;
  const userId = reservedUserId("email", route.userId);
  const allowed = from.length > 0 && from.every((address) => allowedBy(route, address));
  const branch = await ledger.joinThread({ appName, userId, root }, { from, participants, allowed });
  if (branch === null)
    throw new BatonError("invalid_request", "this thread has been answered by too many other senders");
  return sessionOf(branch === 0 ? root : `${root}#${branch}`);
}
