import { once } from "node:events";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll } from "vitest";

/**
 * An HTTP server on 127.0.0.1, at a port the system picks, for the tests of one file: it listens before
 * them and closes after. `origin()` is `http://127.0.0.1:<port>` once it listens; `server` is the Node
 * server itself (to watch its requests).
 */
export function localServer(handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>): {
  server: Server;
  origin: () => string;
} {
  const server = createServer((req, res) => void handle(req, res));
  let origin: string | undefined;
  beforeAll(async () => {
    server.listen(0, "127.0.0.1");
    await once(server, "listening");
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`; // SAFETY: a TCP listen gives an AddressInfo
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return {
    server,
    origin: () => {
      if (origin === undefined)
        throw new Error("the local server is not listening yet (use it inside a test)");
      return origin;
    },
  };
}
