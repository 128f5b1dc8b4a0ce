// vmaf_worst_frames through the official TypeScript SDK, attached over
// stdio by spawning `socat STDIO UNIX-CONNECT:SOCKET` as a host would. The
// SDK checks the structured result against the tool's output schema; the
// reply's content blocks are printed for the Go test
// (tests/pipelines/mcp_worst_test.go) to decode and check.
//
//   node worst.mjs SOCKET ARGS_JSON [ARGS_JSON...]
//
// prints [{args, structured, content: [{type, text?, mimeType?, data?}]}].
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [socket, ...calls] = process.argv.slice(2);
if (!socket || calls.length === 0) {
  console.error("usage: node worst.mjs SOCKET ARGS_JSON [ARGS_JSON...]");
  process.exit(2);
}
const transport = new StdioClientTransport({ command: "socat", args: ["STDIO", `UNIX-CONNECT:${socket}`], stderr: "inherit" });
const client = new Client({ name: "vmafsink-ts-worst", version: "1.0.0" });
await client.connect(transport);
// callTool validates structuredContent against the listed output schema.
await client.listTools();
const out = [];
for (const a of calls) {
  const args = JSON.parse(a);
  // A busy reply (the server's budget for expensive reads is spent) says
  // when to call again; a client waits and does.
  let res;
  for (const start = Date.now(); ; ) {
    res = await client.callTool({ name: "vmaf_worst_frames", arguments: args });
    const text = res.isError ? (res.content?.[0]?.text ?? "") : "";
    if (!text.startsWith("busy") || Date.now() - start > 120000) break;
    const m = text.match(/call again in ([0-9.]+)s/);
    await new Promise((r) => setTimeout(r, m ? Math.ceil(parseFloat(m[1]) * 1000) + 100 : 500));
  }
  if (res.isError) {
    console.error(`vmaf_worst_frames ${a}: ${JSON.stringify(res.content)}`);
    process.exit(1);
  }
  out.push({ args, structured: res.structuredContent, content: res.content });
}
await client.close();
console.log(JSON.stringify(out));
