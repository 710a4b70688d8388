/**
 * `@baton-agents/core/pi`: the pi-agent-core runtime for RuntimeAgent. A separate entry so that workers which do not
 * use it bundle none of `@mariozechner/pi-ai`'s provider SDKs.
 */
export { type PiRuntimeOptions, piRuntime } from "./runtimes/pi-runtime.js";
