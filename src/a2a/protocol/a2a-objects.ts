import * as z from "zod";

/**
 * A2A objects in the 1.0 ProtoJSON shape (PLATFORM.md §3.3). The client reads every reply through the
 * SDK, which turns 0.3 and 1.0 wire forms alike into this one, and validates it here.
 */
const Metadata = z.record(z.string(), z.unknown());

export const A2aPartSchema = z.looseObject({
  text: z.string().optional(),
  raw: z.string().optional(),
  url: z.string().optional(),
  data: z.unknown().optional(),
  metadata: Metadata.optional(),
  filename: z.string().optional(),
  mediaType: z.string().optional(),
});
export type A2aPart = z.infer<typeof A2aPartSchema>;

export const A2aMessageSchema = z.looseObject({
  messageId: z.string(),
  contextId: z.string().optional(),
  taskId: z.string().optional(),
  role: z.string().default("ROLE_UNSPECIFIED"),
  parts: z.array(A2aPartSchema).default([]),
  metadata: Metadata.optional(),
  extensions: z.array(z.string()).optional(),
});
export type A2aMessage = z.infer<typeof A2aMessageSchema>;

export const A2aTaskStatusSchema = z.looseObject({
  state: z.union([z.string(), z.number()]).default("TASK_STATE_UNSPECIFIED"),
  message: A2aMessageSchema.optional(),
  timestamp: z.string().optional(),
});
export type A2aTaskStatus = z.infer<typeof A2aTaskStatusSchema>;

export const A2aArtifactSchema = z.looseObject({
  artifactId: z.string().default(""),
  name: z.string().optional(),
  parts: z.array(A2aPartSchema).default([]),
  metadata: Metadata.optional(),
  extensions: z.array(z.string()).optional(),
});
export type A2aArtifact = z.infer<typeof A2aArtifactSchema>;

export const A2aTaskSchema = z.looseObject({
  id: z.string(),
  contextId: z.string().optional(),
  status: A2aTaskStatusSchema.default({ state: "TASK_STATE_UNSPECIFIED" }),
  artifacts: z.array(A2aArtifactSchema).default([]),
  history: z.array(A2aMessageSchema).default([]),
  metadata: Metadata.optional(),
});
export type A2aTask = z.infer<typeof A2aTaskSchema>;

export const A2aStatusUpdateSchema = z.looseObject({
  taskId: z.string(),
  contextId: z.string().optional(),
  status: A2aTaskStatusSchema.default({ state: "TASK_STATE_UNSPECIFIED" }),
  final: z.boolean().optional(),
  metadata: Metadata.optional(),
});
export type A2aStatusUpdate = z.infer<typeof A2aStatusUpdateSchema>;

export const A2aArtifactUpdateSchema = z.looseObject({
  taskId: z.string(),
  contextId: z.string().optional(),
  artifact: A2aArtifactSchema,
  append: z.boolean().optional(),
  lastChunk: z.boolean().optional(),
  metadata: Metadata.optional(),
});
export type A2aArtifactUpdate = z.infer<typeof A2aArtifactUpdateSchema>;

/** One streamed reply (`StreamResponse`) or a blocking reply (`SendMessageResponse`). */
export const A2aStreamResponseSchema = z.union([
  z.object({ task: A2aTaskSchema }),
  z.object({ message: A2aMessageSchema }),
  z.object({ statusUpdate: A2aStatusUpdateSchema }),
  z.object({ artifactUpdate: A2aArtifactUpdateSchema }),
]);
export type A2aStreamResponse = z.infer<typeof A2aStreamResponseSchema>;
