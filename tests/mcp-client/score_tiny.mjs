// `vmaf-score mcp` scoring with learned models, driven by the official
// TypeScript SDK over stdio: a full-reference tiny model on a pair, a
// no-reference model on the distorted file alone, and the refusals of a
// device the library lacks and of an unpinned model under verification.
// Prints a JSON report for tests/pipelines/mcp_learned_tsclient_test.go.
//
//   node score_tiny.mjs CONFIG_JSON
//
// CONFIG_JSON: {"bin": vmaf-score, "allow": DIR, "ref": PATH, "dist": PATH}
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const cfg = JSON.parse(process.argv[2] ?? "null");
if (!cfg) {
  console.error("usage: node score_tiny.mjs CONFIG_JSON");
  process.exit(2);
}

// The server inherits the environment, so that it finds the ONNX Runtime
// library the test names.
const transport = new StdioClientTransport({
  command: cfg.bin, args: ["mcp", "--allow", cfg.allow, "--threads", "2"], stderr: "inherit", env: { ...process.env },
});
const client = new Client({ name: "vmafsink-ts-tiny", version: "1.0.0" });
await client.connect(transport);

async function score(args) {
  const res = await client.callTool({ name: "vmaf_score_files", arguments: args });
  if (res.isError) return { error: res.content?.[0]?.text ?? "" };
  return { result: res.structuredContent };
}

const { tools } = await client.listTools();
const report = {
  inputs: Object.keys(tools.find((t) => t.name === "vmaf_score_files")?.inputSchema?.properties ?? {}),
  fr: await score({ reference: cfg.ref, distorted: cfg.dist, tiny_model: "vmaf_tiny_v2.onnx", tiny_threads: 1, tiny_device: "cpu", tiny_model_verify: true }),
  nr: await score({ distorted: cfg.dist, no_reference: true, tiny_model: "nr_metric_v1.onnx" }),
  cuda: await score({ reference: cfg.ref, distorted: cfg.dist, tiny_model: "vmaf_tiny_v2.onnx", tiny_device: "cuda" }),
  unpinned: await score({ reference: cfg.ref, distorted: cfg.dist, tiny_model: "unpinned.onnx", tiny_model_verify: true }),
  nrWithFR: await score({ distorted: cfg.dist, no_reference: true, tiny_model: "vmaf_tiny_v2.onnx" }),
};
await client.close();
console.log(JSON.stringify(report));
