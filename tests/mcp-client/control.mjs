// The official TypeScript SDK's client checking the control plane's
// commands over `socat STDIO UNIX-CONNECT:SOCKET`, as hosts attach:
// vmaf_describe_model, a swap to a model that does not suit the stream
// (its mismatched_model_warning), progress notifications while a command
// waits, engine_used and the build's version in replies, and the roles.
// It prints a JSON report for tests/pipelines/mcp_roles_test.go.
//
//   node control.mjs SOCKET full       (the owner or mcp-allow-gid)
//   node control.mjs SOCKET readonly   (a member of mcp-readonly-gid)
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [socket, mode] = process.argv.slice(2);
if (!socket || !["full", "readonly"].includes(mode)) {
  console.error("usage: node control.mjs SOCKET full|readonly");
  process.exit(2);
}

const client = new Client({ name: "vmafsink-ts-control", version: "1.0.0" });
const transport = new StdioClientTransport({ command: "socat", args: ["STDIO", `UNIX-CONNECT:${socket}`], stderr: "inherit" });
await client.connect(transport);

// A call's progress is recorded as it arrives on the wire. The SDK runs a
// notification's handler a microtask later but settles a reply at once,
// removing the call's progress handler: notifications read in the same
// chunk as the reply (all of them, when the command applies at once)
// would never reach onprogress.
let progressSink = null;
const deliver = transport.onmessage;
transport.onmessage = (message, extra) => {
  if (progressSink && message.method === "notifications/progress") {
    const p = message.params;
    progressSink.push({ progress: p.progress, total: p.total ?? null, message: p.message ?? "" });
  }
  deliver(message, extra);
};

const report = { server: client.getServerVersion(), tools: [], calls: {}, errors: {}, progress: {} };
report.tools = (await client.listTools()).tools.map((t) => t.name);

// call records the structured reply or the tool error's text; with
// progress, the notifications the call received.
async function call(label, name, args, progress = false) {
  const opts = { timeout: 60000 };
  if (progress) {
    report.progress[label] = [];
    progressSink = report.progress[label];
    opts.onprogress = () => {}; // asks for progress; recorded above
  }
  let res;
  try {
    res = await client.callTool({ name, arguments: args }, undefined, opts);
  } finally {
    progressSink = null;
  }
  if (res.isError) {
    report.errors[label] = res.content?.[0]?.text ?? "";
    return null;
  }
  report.calls[label] = res.structuredContent;
  return res.structuredContent;
}

await call("status", "vmaf_status", {});
await call("score", "vmaf_score", { last: 2 });
await call("describe_4k", "vmaf_describe_model", { model: "vmaf_4k_v0.6.1" });
await call("describe_unknown", "vmaf_describe_model", { model: "no_such_model" });
if (mode === "readonly") {
  await call("swap", "vmaf_request_model_swap", { model: "vmaf_4k_v0.6.1" });
  await call("pause", "vmaf_pause", {});
  await call("resume", "vmaf_resume", {});
} else {
  await call("describe_b", "vmaf_describe_model", { model: "vmaf_b_v0.6.3" });
  await call("swap", "vmaf_request_model_swap", { model: "vmaf_4k_v0.6.1", wait: true, timeout_ms: 60000 }, true);
  await call("pause", "vmaf_pause", { wait: true, timeout_ms: 60000 }, true);
  await call("resume", "vmaf_resume", { wait: true, timeout_ms: 60000 }, true);
  await call("swap_back", "vmaf_request_model_swap", { model: "vmaf_v0.6.1" });
  await call("status_after", "vmaf_status", {});
}
await client.close();
console.log(JSON.stringify(report));
