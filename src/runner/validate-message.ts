import type { Content } from "../core/content.js";
import { BatonError } from "../core/errors.js";

/** ADK `_validate_new_message`: parts required, no function calls, no text mixed with function responses. */
export function validateNewMessage(message: Content): void {
  const parts = message.parts ?? [];
  if (parts.length === 0) throw new BatonError("invalid_request", "No parts in the new_message.");
  if (parts.some((p) => p.functionCall)) {
    throw new BatonError("invalid_request", "User message cannot contain function calls.");
  }
  const responses = parts.filter((p) => p.functionResponse).length;
  if (responses > 0 && responses < parts.length) {
    throw new BatonError("invalid_request", "A message with function responses cannot contain other parts.");
  }
}
