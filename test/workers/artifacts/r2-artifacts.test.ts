import { env } from "cloudflare:workers";
import { BlobArtifactService } from "../../../src/artifacts/blob-artifact-service.js";
import { r2Blobs } from "../../../src/artifacts/r2-blobs.js";
import { describeArtifactServiceContract } from "../../contract/artifact-service-contract.js";

// The ARTIFACTS bucket of wrangler.toml, simulated by Miniflare.
describeArtifactServiceContract(
  "R2 (ARTIFACTS)",
  (options) => new BlobArtifactService(r2Blobs(env.ARTIFACTS), options),
);
