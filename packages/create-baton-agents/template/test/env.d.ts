// `exports` from "cloudflare:workers" in tests is this module's exports: `exports.default` is the Worker.
declare global {
  namespace Cloudflare {
    interface GlobalProps {
      mainModule: typeof import("../src/worker.js");
    }
  }
}

export {};
