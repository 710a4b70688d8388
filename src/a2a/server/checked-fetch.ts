import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from "node:dns";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import { addressProblem, type PushPolicy } from "./push-policy.js";

/**
 * Node only (a `createAdkApi` host's `directPush`): how a delivery reaches its receiver when Baton resolves
 * the name itself. The connection's own lookup resolves the host and refuses it when any address it gives
 * is one the policy does not allow (`addressProblem`), so the address checked is the address connected to:
 * a name that rebinds to a private address between a check and the connect cannot slip through (decision
 * 048). A Worker cannot do this (its `fetch` resolves names out of sight), so there a name must be named.
 */

/** What a push delivery sends: the subset of `fetch` it uses. */
export type PushFetch = (url: string, init: RequestInit) => Promise<Response>;

type Lookup = (
  hostname: string,
  options: LookupOptions & { all: true },
  callback: (error: NodeJS.ErrnoException | null, addresses: LookupAddress[]) => void,
) => void;

/** `resolve` stands in for `dns.lookup` (tests name a host without DNS). */
export function checkedFetch(policy: PushPolicy, resolve: Lookup = dnsLookup): PushFetch {
  const lookup = (
    hostname: string,
    options: LookupOptions,
    callback: (
      error: NodeJS.ErrnoException | null,
      address: string | LookupAddress[],
      family?: number,
    ) => void,
  ) => {
    resolve(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, "");
      const refused = addresses.map((a) => addressProblem(hostname, a.address, policy)).find((p) => p);
      if (refused) return callback(Object.assign(new Error(refused), { code: "EPUSHREFUSED" }), "");
      if (options.all) return callback(null, addresses);
      const [first] = addresses;
      if (!first)
        return callback(Object.assign(new Error(`${hostname} has no address`), { code: "ENOTFOUND" }), "");
      callback(null, first.address, first.family);
    });
  };
  return (url, init) =>
    new Promise<Response>((settle, fail) => {
      const target = new URL(url);
      const send = target.protocol === "https:" ? httpsRequest : httpRequest;
      const headers = Object.fromEntries(new Headers(init.headers).entries());
      const request = send(
        target,
        { method: init.method ?? "GET", headers, lookup, ...(init.signal ? { signal: init.signal } : {}) },
        (response) => {
          response.resume();
          response.on("end", () => settle(new Response(null, { status: response.statusCode ?? 502 })));
          response.on("error", fail);
        },
      );
      request.on("error", fail);
      request.end(typeof init.body === "string" ? init.body : undefined);
    });
}
