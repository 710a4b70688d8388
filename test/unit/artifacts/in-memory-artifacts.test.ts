import { InMemoryArtifactService } from "../../../src/artifacts/blob-artifact-service.js";
import { describeArtifactServiceContract } from "../../contract/artifact-service-contract.js";

describeArtifactServiceContract("InMemoryArtifactService", (options) => new InMemoryArtifactService(options));
