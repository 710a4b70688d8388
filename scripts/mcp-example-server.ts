// `npm run mcp:example`: a small MCP server for docs/mcp.md's "Agents use MCP servers' tools", built
// with the official MCP SDK. Stateless Streamable HTTP at http://127.0.0.1:8790/mcp (PORT overrides the port).
import { createServer } from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import * as z from "zod";

const PORT = Number(process.env.PORT ?? 8790);

/** A deterministic stand-in for an air-quality API, so the example runs offline. */
function airQualityServer(): McpServer {
  const server = new McpServer({ name: "air-quality-example", version: "1.0.0" });
  server.registerTool(
    "get_air_quality",
    {
      description: "Gets the air quality index (AQI) of a city",
      inputSchema: { city: z.string().describe("The city") },
      outputSchema: { city: z.string(), aqi: z.number(), level: z.string() },
    },
    async ({ city }) => {
      const aqi = 20 + ([...city].reduce((sum, ch) => sum + ch.charCodeAt(0), 0) % 130);
      const level = aqi <= 50 ? "good" : aqi <= 100 ? "moderate" : "unhealthy for sensitive groups";
      return {
        content: [{ type: "text", text: `The air quality in ${city} is ${level} (AQI ${aqi}).` }],
        structuredContent: { city, aqi, level },
      };
    },
  );
  return server;
}

const http = createServer(async (req, res) => {
  if (new URL(req.url ?? "/", "http://127.0.0.1").pathname !== "/mcp") return void res.writeHead(404).end();
  if (req.method !== "POST") return void res.writeHead(405, { allow: "POST" }).end();
  const server = airQualityServer();
  const transport = new StreamableHTTPServerTransport({});
  res.on("close", () => void server.close());
  await server.connect(transport);
  await transport.handleRequest(req, res);
});

http.listen(PORT, "127.0.0.1", () => console.log(`MCP example server: http://127.0.0.1:${PORT}/mcp`));
