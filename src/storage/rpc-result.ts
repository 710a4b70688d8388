import { BatonError, type ErrorCode } from "../core/errors.js";

/**
 * What a Durable Object method returns for an expected refusal. Errors thrown across RPC keep only their
 * message, so the code travels as data and the store rebuilds the `BatonError` on the caller's side.
 */
export type RpcResult<T> = { ok: true; value: T } | { ok: false; code: ErrorCode; message: string };

export const ok = <T>(value: T): RpcResult<T> => ({ ok: true, value });

export const refuse = (error: BatonError): RpcResult<never> => ({
  ok: false,
  code: error.code,
  message: error.message,
});

/** What `work` answers, or its `BatonError` as a refusal (anything else is thrown). */
export function attempt<T>(work: () => T): RpcResult<T> {
  try {
    return ok(work());
  } catch (error) {
    if (error instanceof BatonError) return refuse(error);
    throw error;
  }
}

/** The value of a result, or its refusal thrown as a `BatonError`. */
export function unwrap<T>(result: RpcResult<T>): T {
  if (result.ok) return result.value;
  throw new BatonError(result.code, result.message);
}

/** An object's RPC methods as a caller sees them: the same arguments, each result a promise of its clone. */
export type Remote<T> = {
  [K in keyof T as T[K] extends (...args: never[]) => unknown ? K : never]: T[K] extends (
    ...args: infer A
  ) => infer R
    ? (...args: A) => Promise<Awaited<R>>
    : never;
};

/**
 * Views a stub through its object's own method signatures. workers-types maps `unknown` (free-form state
 * values) to `never` in stub results, which would erase our `StateMap`s; the values are plain JSON data.
 */
export function remote<T>(stub: DurableObjectStub<T & Rpc.DurableObjectBranded>): Remote<T> {
  // SAFETY: RPC calls the object's methods with these arguments and resolves to structured clones of
  // their results; everything they take and return is JSON-shaped data, which clones as itself.
  return stub as unknown as Remote<T>;
}

/**
 * An object called in place as its stub would be: each method's result as a promise. For a store that runs
 * inside the object it calls (decision 040); the object's answers are fresh values over frozen data, so
 * nothing the caller changes reaches the object's own state.
 */
export function local<T extends object>(object: T): Remote<T> {
  // SAFETY: `Remote<T>` has `T`'s methods with their results wrapped in promises, which this does.
  return new Proxy(object, {
    get(target, property) {
      const value: unknown = Reflect.get(target, property);
      if (typeof value !== "function") return value;
      return async (...args: unknown[]) => value.apply(target, args);
    },
  }) as unknown as Remote<T>;
}
