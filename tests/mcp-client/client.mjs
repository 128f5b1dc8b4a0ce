// An MCP client no one on this project wrote — the official TypeScript
// SDK — attached the way a stdio host (Claude Desktop, Claude Code, the
// MCP Inspector) attaches: it spawns `socat STDIO UNIX-CONNECT:SOCKET`.
// It lists and calls every tool, reads the resources and prompts,
// subscribes to live scores, and prints a JSON report for the Go test
// (tests/pipelines/mcp_tsclient_test.go) to check.
//
//   node client.mjs SOCKET [UPDATES]
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import {
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";

const socket = process.argv[2];
const wantUpdates = Number(process.argv[3] ?? 10);
if (!socket) {
  console.error("usage: node client.mjs SOCKET [UPDATES]");
  process.exit(2);
}

const transport = new StdioClientTransport({
  command: "socat",
  args: ["STDIO", `UNIX-CONNECT:${socket}`],
  stderr: "inherit",
});
const client = new Client({ name: "vmafsink-ts-check", version: "1.0.0" });
await client.connect(transport);

const report = {
  server: client.getServerVersion(),
  capabilities: client.getServerCapabilities(),
  tools: [],
  calls: {},
  errors: {},
  prompts: {},
  resources: {},
  updates: 0,
  logs: 0,
  frames: [],
};

const { tools } = await client.listTools();
report.tools = tools.map((t) => ({
  name: t.name,
  readOnly: t.annotations?.readOnlyHint ?? null,
  outputSchema: Boolean(t.outputSchema),
}));

// callTool validates structuredContent against each tool's outputSchema.
async function call(name, args) {
  const res = await client.callTool({ name, arguments: args });
  if (res.isError) {
    report.errors[name] = res.content?.[0]?.text ?? "";
    return null;
  }
  report.calls[name] = res.structuredContent;
  return res.structuredContent;
}

await call("vmaf_status", {});
await call("vmaf_features", {});
await call("vmaf_list_models", {});
await call("vmaf_score", { last: 3, worst: 2 });
await call("vmaf_pause", { wait: true, timeout_ms: 20000 });
await call("vmaf_resume", { wait: true, timeout_ms: 20000 });
await call("vmaf_request_model_swap", { model: "vmaf_v0.6.1neg", name: "vmaf_neg", wait: true, timeout_ms: 20000 });
// A dotted alias works though it is not listed.
const alias = await client.callTool({ name: "vmaf.status", arguments: {} });
report.calls["vmaf.status"] = alias.isError ? null : alias.structuredContent;
// A refusal is a tool error the agent can read.
const refused = await client.callTool({ name: "vmaf_request_model_swap", arguments: { model: "no_such_model" } });
report.errors["refused_swap"] = refused.isError ? refused.content?.[0]?.text ?? "" : null;

const { prompts } = await client.listPrompts();
for (const p of prompts) {
  const args = p.name === "diagnose_quality_drop" ? { from: "0", to: "2" } : {};
  const got = await client.getPrompt({ name: p.name, arguments: args });
  report.prompts[p.name] = got.messages[0]?.content?.text?.length ?? 0;
}

const { resources } = await client.listResources();
for (const r of resources) {
  const got = await client.readResource({ uri: r.uri });
  report.resources[r.uri] = JSON.parse(got.contents[0].text);
}

// Live scores: one notification per scored frame, the record in _meta.
let done;
const enough = new Promise((resolve) => (done = resolve));
client.setNotificationHandler(ResourceUpdatedNotificationSchema, (n) => {
  if (n.params.uri !== "vmaf://scores/live") return;
  report.updates++;
  const rec = n.params._meta?.record;
  if (rec) report.frames.push({ frame: rec.frame, model: rec.model, score: rec.score });
  if (report.updates >= wantUpdates) done();
});
client.setNotificationHandler(LoggingMessageNotificationSchema, () => {
  report.logs++;
});
await client.setLoggingLevel("info");
await client.subscribeResource({ uri: "vmaf://scores/live" });
const timeout = setTimeout(done, 30000);
await enough;
clearTimeout(timeout);
await client.unsubscribeResource({ uri: "vmaf://scores/live" });

await client.close();
console.log(JSON.stringify(report));
