import { StreamResponse, Task } from "@a2a-js/sdk";
import { type TaskPayload, TaskPayloadSchema } from "../../core/task-store.js";

/** Tasks and updates are stored as A2A 1.0 ProtoJSON, the SDK's own codec. */
export const encodeTask = (task: Task): TaskPayload => TaskPayloadSchema.parse(Task.toJSON(task));
export const decodeTask = (payload: TaskPayload): Task => Task.fromJSON(payload);
export const encodeUpdate = (update: StreamResponse): TaskPayload =>
  TaskPayloadSchema.parse(StreamResponse.toJSON(update));
export const decodeUpdate = (payload: TaskPayload): StreamResponse => StreamResponse.fromJSON(payload);
