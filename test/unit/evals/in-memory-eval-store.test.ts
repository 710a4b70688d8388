import { InMemoryEvalStore } from "../../../src/evals/eval-store.js";
import { describeEvalStoreContract } from "../../contract/eval-store-contract.js";

describeEvalStoreContract("in memory", () => new InMemoryEvalStore());
