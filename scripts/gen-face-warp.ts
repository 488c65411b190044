// Generates the built-in renderer model (box/render/models/face-warp.onnx) from code: a
// parametric face warp, opset 17, no weights. Usage: bun scripts/gen-face-warp.ts [out.onnx]
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { DEFAULT_FACE_WARP_PATH } from "../box/render/face-warp/model-file.ts";
import { FACE_WARP_VERSION } from "../box/render/face-warp/io.ts";
import { buildFaceWarpModel } from "../box/render/face-warp/model.ts";

const out = resolve(process.argv[2] ?? DEFAULT_FACE_WARP_PATH);
const { bytes, nodeCount } = buildFaceWarpModel();
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, bytes);
console.log(`face-warp v${FACE_WARP_VERSION}: ${nodeCount} nodes, ${bytes.length} bytes -> ${out}`);
