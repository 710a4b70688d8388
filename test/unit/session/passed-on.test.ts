import { describe } from "vitest";
import { passedOnCases } from "../../support/passed-on-cases.js";

describe("passedOn in Node, through a TransformStream", passedOnCases);
