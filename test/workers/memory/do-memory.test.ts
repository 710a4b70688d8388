import { env } from "cloudflare:workers";
import { DurableObjectMemoryService } from "../../../src/memory/do-memory.js";
// Loaded here so the entry's module graph (the objects' classes) is imported with the file, not in the first test.
import "../../../src/worker.js";
import { describeMemoryServiceContract } from "../../contract/memory-service-contract.js";

// Each user's memories in their UserObject (wrangler.toml's USERS), SQLite with FTS5, in workerd.
describeMemoryServiceContract(
  "DurableObjectMemoryService (the user's object, FTS5)",
  () => new DurableObjectMemoryService(env),
);
