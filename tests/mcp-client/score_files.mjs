// `vmaf-score mcp` driven by the official TypeScript SDK over stdio, the
// way a host (Claude Desktop, Claude Code) starts it: the client spawns the
// server and speaks MCP on its standard input and output. It lists the
// tool, scores a golden pair, scores a long pair with progress, cancels a
// run, asks for files outside --allow and scores without --allow, and
// prints a JSON report for tests/pipelines/mcp_files_tsclient_test.go.
//
//   node score_files.mjs CONFIG_JSON
//
// CONFIG_JSON: {"bin": vmaf-score, "allow": DIR, "outputDir": DIR,
//   "golden": [REF, DIST], "long": [REF, DIST], "longFrames": N,
//   "outside": PATH, "linkOut": PATH}
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const cfg = JSON.parse(process.argv[2] ?? "null");
if (!cfg) {
  console.error("usage: node score_files.mjs CONFIG_JSON");
  process.exit(2);
}

async function connect(args) {
  const transport = new StdioClientTransport({ command: cfg.bin, args: ["mcp", ...args], stderr: "inherit" });
  const client = new Client({ name: "vmafsink-ts-check", version: "1.0.0" });
  await client.connect(transport);
  return client;
}

// A call's outcome: the structured result (which the SDK has checked
// against the tool's output schema), or the tool error's text.
async function score(client, args, options) {
  const res = await client.callTool({ name: "vmaf_score_files", arguments: args }, undefined, options);
  if (res.isError) return { error: res.content?.[0]?.text ?? "" };
  return { result: res.structuredContent };
}

const report = { tools: [], golden: null, long: null, progress: [], cancel: {}, outside: null, linkOut: null, noAllow: null };
const client = await connect(["--allow", cfg.allow, "--output-dir", cfg.outputDir, "--threads", "2"]);
report.server = client.getServerVersion();
const { tools } = await client.listTools();
report.tools = tools.map((t) => ({ name: t.name, inputs: Object.keys(t.inputSchema?.properties ?? {}), outputSchema: Boolean(t.outputSchema) }));

report.golden = await score(client, { reference: cfg.golden[0], distorted: cfg.golden[1] });

// More frames than a reply carries: the results go to a file, and the
// client is told of the progress.
const longStart = Date.now();
report.long = await score(
  client,
  { reference: cfg.long[0], distorted: cfg.long[1], frame_cnt: cfg.longFrames },
  { onprogress: (p) => report.progress.push(p), timeout: 120000 },
);
report.longMs = Date.now() - longStart;

// A run over the whole long pair, cancelled at its first progress
// notification; the server logs how far it got (the Go test reads that),
// and takes the next call once the run has stopped (busy until then; the
// minute is a guard against a hang). The times are only reported.
{
  const ac = new AbortController();
  let atFrame = null;
  const start = Date.now();
  const run = score(
    client,
    { reference: cfg.long[0], distorted: cfg.long[1] },
    {
      signal: ac.signal,
      timeout: 120000,
      onprogress: (p) => {
        if (atFrame === null) {
          atFrame = p.progress;
          ac.abort("enough");
        }
      },
    },
  );
  try {
    const r = await run;
    report.cancel.completed = r;
  } catch (e) {
    report.cancel.rejected = String(e?.message ?? e);
  }
  report.cancel.atFrame = atFrame;
  report.cancel.afterMs = Date.now() - start;
  // Busy while the cancelled run still holds the server's one slot.
  const cancelled = Date.now();
  report.cancel.busy = 0;
  for (;;) {
    const r = await score(client, { reference: cfg.golden[0], distorted: cfg.golden[1], frame_cnt: 1 });
    if (r.error?.startsWith("busy") && Date.now() - cancelled < 60000) {
      report.cancel.busy++;
      await new Promise((res) => setTimeout(res, 20));
      continue;
    }
    report.cancel.next = r;
    break;
  }
  report.cancel.freeAfterMs = Date.now() - cancelled;
}

report.outside = await score(client, { reference: cfg.outside, distorted: cfg.golden[1] });
if (cfg.linkOut) report.linkOut = await score(client, { reference: cfg.golden[0], distorted: cfg.linkOut });
await client.close();

const bare = await connect([]);
report.noAllow = await score(bare, { reference: cfg.golden[0], distorted: cfg.golden[1] });
await bare.close();

console.log(JSON.stringify(report));
