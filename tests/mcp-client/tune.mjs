// `vmaf-tune mcp` driven by the official TypeScript SDK over stdio, as a
// host starts it: it lists the tools, computes a BD-rate from files and
// from inline points, runs a CRF search with progress, a comparison, a
// ladder and a per-shot plan, cancels a long
// search at its first progress notification, and asks for files outside
// --allow; it prints a JSON report for
// tests/pipelines/mcp_tune_tsclient_test.go.
//
//   node tune.mjs CONFIG_JSON
//
// CONFIG_JSON: {"bin": vmaf-tune, "allow": DIR, "outputDir": DIR, "cacheDir": DIR,
//   "source": PATH, "long": PATH, "cut": PATH, "anchor": CSV, "test": CSV, "nonmono": CSV}
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const cfg = JSON.parse(process.argv[2] ?? "null");
if (!cfg) {
  console.error("usage: node tune.mjs CONFIG_JSON");
  process.exit(2);
}

const transport = new StdioClientTransport({
  command: cfg.bin,
  args: ["mcp", "--allow", cfg.allow, "--output-dir", cfg.outputDir, "--cache-dir", cfg.cacheDir, "--threads", "2"],
  stderr: "inherit",
});
const client = new Client({ name: "vmafsink-ts-check", version: "1.0.0" });
await client.connect(transport);

// The search's progress is recorded as it arrives on the wire. The SDK
// runs a notification's handler a microtask later but handles a response
// at once, removing the request's progress handler: a last notification
// read in the same chunk as the reply would never reach onprogress.
let progressSink = null;
const deliver = transport.onmessage;
transport.onmessage = (message, extra) => {
  if (progressSink && message.method === "notifications/progress") progressSink.push(message.params);
  deliver(message, extra);
};

async function call(name, args, options) {
  const res = await client.callTool({ name, arguments: args }, undefined, options);
  if (res.isError) return { error: res.content?.[0]?.text ?? "" };
  return { result: res.structuredContent };
}

const report = { server: client.getServerVersion(), progress: [], cancel: {} };
const { tools } = await client.listTools();
report.tools = tools.map((t) => ({ name: t.name, outputSchema: Boolean(t.outputSchema) }));

report.bdFiles = await call("bd_rate", { anchor_file: cfg.anchor, test_file: cfg.test });
report.bdInline = await call("bd_rate", {
  anchor: [{ bitrate: 100, vmaf: 80 }, { bitrate: 200, vmaf: 88 }, { bitrate: 400, vmaf: 93 }, { bitrate: 800, vmaf: 96 }],
  test: [{ bitrate: 90, vmaf: 80 }, { bitrate: 180, vmaf: 88 }, { bitrate: 360, vmaf: 93 }, { bitrate: 720, vmaf: 96 }],
});
report.bdNonMono = await call("bd_rate", { anchor_file: cfg.nonmono, test_file: cfg.test });
report.bdOutside = await call("bd_rate", { anchor_file: "/etc/passwd", test_file: cfg.test });

progressSink = report.progress;
report.search = await call(
  "crf_search",
  { source: cfg.source, encoder: "libx264", preset: "veryfast", encoder_options: ["threads=1"], target: 92, output: "best.mp4" },
  // onprogress makes the SDK ask for progress; the notifications are
  // recorded above.
  { onprogress: () => {}, timeout: 300000 },
);
progressSink = null;

// A search over the long source, cancelled at its first progress
// notification; the server logs that it stopped (the Go test reads that)
// and takes the next search once it has (busy until then; the two
// minutes are a guard against a hang).
{
  const ac = new AbortController();
  let first = null;
  const run = call(
    "crf_search",
    { source: cfg.long, encoder: "libx264", preset: "medium", target: 95 },
    {
      signal: ac.signal,
      timeout: 300000,
      onprogress: (p) => {
        if (first === null) {
          first = p;
          ac.abort("enough");
        }
      },
    },
  );
  try {
    report.cancel.completed = await run;
  } catch (e) {
    report.cancel.rejected = String(e?.message ?? e);
  }
  report.cancel.first = first;
  const cancelled = Date.now();
  report.cancel.busy = 0;
  for (;;) {
    const r = await call("crf_search", { source: cfg.source, encoder: "libx264", preset: "ultrafast", target: 80, max_encodes: 1 });
    if (r.error?.startsWith("busy") && Date.now() - cancelled < 120000) {
      report.cancel.busy++;
      await new Promise((res) => setTimeout(res, 20));
      continue;
    }
    report.cancel.next = r;
    break;
  }
}

report.compare = await call(
  "run_compare",
  { source: cfg.source, encoders: ["libx264:veryfast", "libx264:ultrafast"], targets: [90], sweep: 4 },
  { timeout: 300000 },
);
report.ladder = await call(
  "run_ladder",
  { source: cfg.source, encoder: "libx264", preset: "veryfast", resolutions: ["576x324", "288x162"], crfs: [22, 30], rungs: 2 },
  { timeout: 300000 },
);
report.perShot = await call(
  "run_tune_per_shot",
  { source: cfg.cut, encoder: "libx264", preset: "veryfast", target: 90, output: "plan.ts" },
  { timeout: 300000 },
);

report.outside = await call("crf_search", { source: "/etc/passwd", encoder: "libx264", target: 90 });
report.badOutput = await call("crf_search", { source: cfg.source, encoder: "libx264", target: 90, output: "../escape.mp4" });
await client.close();
console.log(JSON.stringify(report));
