// An MCP client no one on this project wrote — the official TypeScript
// SDK — attached the way hosts (Claude Desktop, Claude Code, the MCP
// Inspector) attach: over stdio by spawning `socat STDIO UNIX-CONNECT:SOCKET`
// or `vmafctl -s SOCKET stdio`, or over HTTP (Streamable HTTP at /mcp, the
// older HTTP+SSE transport at /sse). It lists and calls every tool, reads
// the resources and prompts, subscribes to live scores, and prints a JSON
// report for the Go tests (tests/pipelines/mcp_tsclient_test.go) to check.
//
//   node client.mjs SOCKET [UPDATES]                  (socat)
//   node client.mjs TRANSPORT TARGET [UPDATES]
//
// TRANSPORT is socat or vmafctl (TARGET a socket path; the vmafctl binary
// is $VMAFCTL, default vmafctl on PATH), or http or sse (TARGET the base
// URL, http://127.0.0.1:PORT). Over HTTP, $VMAF_MCP_TOKEN is sent as a
// bearer token and $VMAF_MCP_ORIGIN as the Origin header. With
// VMAF_MCP_CONNECT_ONLY=1 the client only connects and reports the
// outcome ({connected} or {connectError, code}), for refusal checks.
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import {
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";

const transports = ["socat", "vmafctl", "http", "sse"];
let [kind, target, updates] = process.argv.slice(2);
if (!transports.includes(kind)) {
  [kind, target, updates] = ["socat", process.argv[2], process.argv[3]];
}
const wantUpdates = Number(updates ?? 10);
if (!target) {
  console.error("usage: node client.mjs SOCKET [UPDATES] | node client.mjs socat|vmafctl|http|sse TARGET [UPDATES]");
  process.exit(2);
}

function makeTransport() {
  const headers = {};
  if (process.env.VMAF_MCP_TOKEN) headers.Authorization = `Bearer ${process.env.VMAF_MCP_TOKEN}`;
  if (process.env.VMAF_MCP_ORIGIN) headers.Origin = process.env.VMAF_MCP_ORIGIN;
  switch (kind) {
    case "socat":
      return new StdioClientTransport({ command: "socat", args: ["STDIO", `UNIX-CONNECT:${target}`], stderr: "inherit" });
    case "vmafctl":
      return new StdioClientTransport({ command: process.env.VMAFCTL || "vmafctl", args: ["-s", target, "stdio"], stderr: "inherit" });
    case "http":
      return new StreamableHTTPClientTransport(new URL("/mcp", target), { requestInit: { headers } });
    case "sse":
      return new SSEClientTransport(new URL("/sse", target), { requestInit: { headers } });
  }
}

const transport = makeTransport();
const client = new Client({ name: "vmafsink-ts-check", version: "1.0.0" });
try {
  await client.connect(transport);
} catch (e) {
  if (process.env.VMAF_MCP_CONNECT_ONLY !== "1") throw e;
  console.log(JSON.stringify({ connectError: String(e?.message ?? e), code: e?.code ?? null }));
  process.exit(0);
}
if (process.env.VMAF_MCP_CONNECT_ONLY === "1") {
  await client.close();
  console.log(JSON.stringify({ connected: true }));
  process.exit(0);
}

const report = {
  transport: kind,
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
await call("vmaf_worst_frames", { n: 2 });
await call("vmaf_pause", { wait: true, timeout_ms: 60000 });
await call("vmaf_resume", { wait: true, timeout_ms: 60000 });
await call("vmaf_request_model_swap", { model: "vmaf_v0.6.1neg", name: "vmaf_neg", wait: true, timeout_ms: 60000 });
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
const timeout = setTimeout(done, 60000); // a guard against a hang: the Go test checks the count
await enough;
clearTimeout(timeout);
await client.unsubscribeResource({ uri: "vmaf://scores/live" });

await client.close();
console.log(JSON.stringify(report));
