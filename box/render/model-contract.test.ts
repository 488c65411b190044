import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import * as ort from "onnxruntime-node";
import { describe, expect, it } from "vitest";
import { TONES } from "../../shared/wire/tones.ts";
import { FaceRenderer } from "./face-renderer.ts";
import { GraphBuilder, Maths, type Dim } from "./face-warp/graph-builder.ts";
import { FACE_WARP_VERSION, IO } from "./face-warp/io.ts";
import { loadOrBuildFaceWarp, modelVersion } from "./face-warp/model-file.ts";
import { buildFaceWarpModel } from "./face-warp/model.ts";
import { NEUTRAL_FRAME } from "./frame-params.ts";
import { MOUTH_INPUT_SIZE } from "./mouth-palette.ts";
import { ANCHOR_COUNT, type PreparedFace } from "./prepared-face.ts";
import { restFrame, TONE_REST } from "./tone-rest.ts";

const dir = mkdtempSync(join(tmpdir(), "render-contract-"));

/** A stand-in "learned" model: takes only the planes, inverts the luma, keeps chroma. */
function writeInvertModel(path: string, inputName: string = IO.y, dims: Dim[] = [1, 1, "H", "W"]): void {
  const g = new GraphBuilder();
  const m = new Maths(g);
  const y = g.input(inputName, "uint8", dims);
  const uv = g.input(IO.uv, "uint8", [1, 2, "Hc", "Wc"]);
  g.output(g.op("Sub", [m.cast(g.c(255), "uint8"), y]), IO.yOut, "uint8", dims);
  g.output(m.cast(m.cast(uv, "float"), "uint8"), IO.uvOut, "uint8", [1, 2, "Hc", "Wc"]);
  writeFileSync(path, g.encode({ name: "invert", doc: "", metadata: {} }));
}

function flatFace(size: number): PreparedFace {
  const i420 = new Uint8Array((size * size * 3) / 2);
  for (let i = 0; i < i420.length; i++) i420[i] = (i * 31) & 255;
  const pt = { x: size / 2, y: size / 2 };
  const eye = { ...pt, width: 10, height: 5 };
  return {
    width: size,
    height: size,
    i420,
    anchors: {
      face: { ...pt, width: 50, height: 60 },
      mouth: { ...pt, width: 20 },
      leftEye: eye,
      rightEye: eye,
      leftBrow: pt,
      rightBrow: pt,
    },
  };
}

describe("renderer model I/O contract", () => {
  it("the built-in model declares the documented inputs and outputs", async () => {
    const s = await ort.InferenceSession.create(buildFaceWarpModel().bytes);
    expect(s.inputNames).toEqual([IO.y, IO.uv, IO.anchors, IO.params, IO.mouth]);
    expect(s.outputNames).toEqual([IO.yOut, IO.uvOut]);
    const meta = Object.fromEntries(s.inputMetadata.map((x) => [x.name, x]));
    expect(meta[IO.y]).toMatchObject({ isTensor: true, type: "uint8", shape: [1, 1, "H", "W"] });
    expect(meta[IO.uv]).toMatchObject({ isTensor: true, type: "uint8", shape: [1, 2, "Hc", "Wc"] });
    expect(meta[IO.anchors]).toMatchObject({ isTensor: true, type: "float32", shape: [ANCHOR_COUNT] });
    expect(meta[IO.params]).toMatchObject({ isTensor: true, type: "float32", shape: [10] });
    expect(meta[IO.mouth]).toMatchObject({ isTensor: true, type: "float32", shape: [MOUTH_INPUT_SIZE] });
    await s.release();
  });

  it("runs a custom model from modelPath, feeding only the inputs it declares", async () => {
    const path = join(dir, "invert.onnx");
    writeInvertModel(path);
    const r = await FaceRenderer.load({ modelPath: path, width: 64, height: 64 });
    expect(r.modelSource).toBe(path);
    const face = flatFace(64);
    const out = await r.render(face, { ...NEUTRAL_FRAME, open: 1 });
    expect(out[0]).toBe(255 - face.i420[0]);
    expect(out[64 * 64 - 1]).toBe(255 - face.i420[64 * 64 - 1]);
    expect(Buffer.compare(Buffer.from(out.subarray(64 * 64)), Buffer.from(face.i420.subarray(64 * 64)))).toBe(0);
    await r.dispose();
  });

  it("refuses a model that does not follow the contract", async () => {
    const path = join(dir, "rgb.onnx");
    writeInvertModel(path, "rgb");
    await expect(FaceRenderer.load({ modelPath: path, width: 64, height: 64 })).rejects.toThrow(
      /I\/O contract.*missing y.*unknown inputs rgb/,
    );
  });

  it("refuses a fixed-size model at another size", async () => {
    const path = join(dir, "fixed.onnx");
    writeInvertModel(path, IO.y, [1, 1, 256, 256]);
    await expect(FaceRenderer.load({ modelPath: path, width: 128, height: 128 })).rejects.toThrow(/256x256/);
  });
});

describe("generated model file", () => {
  it("is generated when missing, reused when current, rebuilt when stale", () => {
    const path = join(dir, "models", "face-warp.onnx");
    expect(loadOrBuildFaceWarp(path).generated).toBe(true);
    expect(modelVersion(readFileSync(path))).toBe(FACE_WARP_VERSION);
    expect(loadOrBuildFaceWarp(path).generated).toBe(false);
    writeFileSync(path, buildStale());
    expect(loadOrBuildFaceWarp(path).generated).toBe(true);
    expect(modelVersion(readFileSync(path))).toBe(FACE_WARP_VERSION);
  });

  it("the checked-in model matches the generator", () => {
    const shipped = readFileSync(new URL("./models/face-warp.onnx", import.meta.url));
    expect(modelVersion(shipped)).toBe(FACE_WARP_VERSION);
    expect(Buffer.compare(shipped, Buffer.from(buildFaceWarpModel().bytes))).toBe(0);
  });
});

function buildStale(): Uint8Array {
  const g = new GraphBuilder();
  const y = g.input("y", "uint8", [1]);
  g.output(y, "y_out", "uint8", [1]);
  return g.encode({ name: "old", doc: "", metadata: { face_warp_version: "0" } });
}

describe("tone resting expressions", () => {
  it("cover every tone and only set expression fields", () => {
    expect(Object.keys(TONE_REST).sort()).toEqual([...TONES].sort());
    for (const tone of TONES) {
      for (const key of Object.keys(TONE_REST[tone])) expect(["smile", "brow", "open", "wide", "round"]).toContain(key);
      expect(restFrame(tone)).toMatchObject({ ...NEUTRAL_FRAME, ...TONE_REST[tone] });
    }
    expect(TONE_REST.happy.smile).toBeGreaterThan(0);
    expect(TONE_REST.sad.smile).toBeLessThan(0);
    expect(TONE_REST.surprised.brow).toBeGreaterThan(0);
  });
});
