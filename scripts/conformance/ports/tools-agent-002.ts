import type { FunctionTool } from "../../../src/agents/function-tool.js";
import { pythonTool, pythonTypeName } from "./python-tool.js";

/*
 * TypeScript ports of `agents/tools_agent_002/tools.py` (google/adk-conformance, case tool/function_001),
 * keyed by their dotted Python names. Docstrings are the Python ones, verbatim: they are the declarations.
 */

const EMAIL = /^[a-zA-Z0-9._%+-]+@[a-zA-Z0-9.-]+\.[a-zA-Z]{2,}$/;

const validateEmail = pythonTool({
  name: "validate_email",
  docstring: "Checks if the provided string is a valid email format.",
  parameters: { email: "string" },
  execute: ({ email }) => EMAIL.test(String(email)),
});

/**
 * Python returns `abs(hash(email)) % 10000`, and Python salts `hash()` per process, so no port can give
 * its number: this one hashes with FNV-1a. Replay answers with the recorded id either way; the port runs
 * for what Python's does besides (refusing an invalid email).
 */
const getUserId = pythonTool({
  name: "get_user_id",
  docstring: "Retrieves a user ID based on their email.",
  parameters: { email: "string" },
  execute: ({ email }) => {
    const text = String(email);
    if (!EMAIL.test(text)) throw new Error("Invalid email format provided.");
    let hash = 0x811c9dc5;
    for (const char of text) hash = Math.imul(hash ^ (char.codePointAt(0) ?? 0), 0x01000193) >>> 0;
    return hash % 10000;
  },
});

const createBooking = pythonTool({
  name: "create_booking",
  docstring:
    "Creates a booking for a user.\n\n  Args:\n    user_id: The unique identifier for the user.\n" +
    "    is_confirmed: Whether the booking is confirmed.\n    details: Any additional details for the booking.\n\n" +
    "  Returns:\n    A dictionary containing the booking information and the types of the\n    received arguments.\n  ",
  parameters: { user_id: "integer", is_confirmed: "boolean", details: "string" },
  execute: ({ user_id, is_confirmed, details }) => ({
    user_id,
    is_confirmed,
    details,
    user_id_type: pythonTypeName(user_id),
    is_confirmed_type: pythonTypeName(is_confirmed),
    details_type: pythonTypeName(details),
  }),
});

/** The function tools of tools_agent_002, by Python name. */
export const toolsAgent002: Readonly<Record<string, FunctionTool>> = {
  "tools_agent_002.tools.validate_email": validateEmail,
  "tools_agent_002.tools.get_user_id": getUserId,
  "tools_agent_002.tools.create_booking": createBooking,
};
