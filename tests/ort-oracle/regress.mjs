// Runs a codec-aware full-reference regressor through ONNX Runtime from
// Node, on libvmaf's own per-frame features, with nothing of the engine's:
// the model's inputs are laid out here from its card alone.
//
//   node regress.mjs MODEL.onnx SCORES.json ENCODER PRESET CRF
//
// SCORES.json is libvmaf's JSON log (frames[].metrics with integer_adm2,
// integer_vif_scale0..3, integer_motion2). Prints a JSON array: the
// model's output for each frame.
import { readFileSync } from "node:fs";
import * as ort from "onnxruntime-node";

const [model, scoresPath, encoder, preset, crf] = process.argv.slice(2);
if (!crf) {
  console.error("usage: node regress.mjs MODEL.onnx SCORES.json ENCODER PRESET CRF");
  process.exit(2);
}
const card = JSON.parse(readFileSync(model.replace(/\.onnx$/, ".json"), "utf8"));
const libvmafName = {
  adm2: "integer_adm2",
  vif_scale0: "integer_vif_scale0",
  vif_scale1: "integer_vif_scale1",
  vif_scale2: "integer_vif_scale2",
  vif_scale3: "integer_vif_scale3",
  motion2: "integer_motion2",
};

// The codec block, as the README's "Codec block" describes it: the
// encoder's one-hot slot, the preset's place on x264's ladder (0 fastest,
// 1 slowest) and crf over 51.
const ladder = ["ultrafast", "superfast", "veryfast", "faster", "fast", "medium", "slow", "slower", "veryslow", "placebo"];
if (!["libx264", "libx265"].includes(encoder) || !ladder.includes(preset)) {
  console.error("this oracle lays out x264 and x265 encodes only");
  process.exit(2);
}
const block = card.codec_block_layout.map((slot) => {
  if (slot === `encoder_onehot[${encoder}]`) return 1;
  if (slot.startsWith("encoder_onehot[")) return 0;
  if (slot === "preset_norm") return ladder.indexOf(preset) / (ladder.length - 1);
  if (slot === "crf_norm") return Number(crf) / 51;
  throw new Error(`unknown codec block slot ${slot}`);
});

const frames = JSON.parse(readFileSync(scoresPath, "utf8")).frames;
const session = await ort.InferenceSession.create(model, { intraOpNumThreads: 1, interOpNumThreads: 1 });
const [featuresName, codecName] = card.input_names;
const out = [];
for (const f of frames) {
  const x = card.feature_order.map((name, i) => (f.metrics[libvmafName[name]] - card.feature_mean[i]) / card.feature_std[i]);
  const feeds = {
    [featuresName]: new ort.Tensor("float32", Float32Array.from(x), [1, x.length]),
    [codecName]: new ort.Tensor("float32", Float32Array.from(block), [1, block.length]),
  };
  const res = await session.run(feeds);
  out.push(res[session.outputNames[0]].data[0]);
}
console.log(JSON.stringify(out));
