import { InMemoryMemoryService } from "../../../src/memory/in-memory-memory.js";
import { describeMemoryServiceContract } from "../../contract/memory-service-contract.js";

describeMemoryServiceContract("InMemoryMemoryService", () => new InMemoryMemoryService());
