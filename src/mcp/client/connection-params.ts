import * as z from "zod";

const Headers = z.record(z.string(), z.string());

/** ADK `StreamableHTTPConnectionParams`, camelCased; timeouts in seconds as there. */
export const StreamableHttpParamsSchema = z.strictObject({
  type: z.literal("streamable-http").default("streamable-http"),
  url: z.url({ protocol: /^https?$/ }),
  headers: Headers.optional(),
  /** Seconds to connect (the `initialize` exchange). ADK's default: 5. */
  timeout: z.number().positive().default(5),
  /** Seconds each request (listing tools, a tool call) may take. ADK's default: 300. */
  sseReadTimeout: z.number().positive().default(300),
});

/** ADK `SseConnectionParams`: the older HTTP+SSE transport only, no Streamable HTTP attempt. */
export const SseParamsSchema = StreamableHttpParamsSchema.extend({ type: z.literal("sse") });

/** How to reach an MCP server: Streamable HTTP (falling back to HTTP+SSE on a 4xx), or HTTP+SSE only. */
export const ConnectionParamsSchema = z.union([SseParamsSchema, StreamableHttpParamsSchema]);
export type ConnectionParams = z.output<typeof ConnectionParamsSchema>;
export type ConnectionParamsInput = z.input<typeof ConnectionParamsSchema>;
