// The generated face-warp model on disk: rebuilt from code when missing or when the file was
// produced by another version of the generator.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import onnxProto from "onnx-proto";
import { FACE_WARP_VERSION } from "./io.ts";
import { buildFaceWarpModel } from "./model.ts";

export const DEFAULT_FACE_WARP_PATH = fileURLToPath(new URL("../models/face-warp.onnx", import.meta.url));

export function modelVersion(bytes: Uint8Array): string | undefined {
  try {
    const model = onnxProto.onnx.ModelProto.decode(bytes);
    return model.metadataProps.find((p) => p.key === "face_warp_version")?.value ?? undefined;
  } catch {
    return undefined;
  }
}

/**
 * The built-in model's bytes: read from `path` when it is current, else generated and
 * written there (a read-only volume keeps the in-memory copy).
 */
export function loadOrBuildFaceWarp(path = DEFAULT_FACE_WARP_PATH): { bytes: Uint8Array; generated: boolean } {
  if (existsSync(path)) {
    const bytes = new Uint8Array(readFileSync(path));
    if (modelVersion(bytes) === FACE_WARP_VERSION) return { bytes, generated: false };
  }
  const { bytes } = buildFaceWarpModel();
  try {
    mkdirSync(dirname(path), { recursive: true });
    // Write then rename, so a process starting alongside never reads half a file.
    const tmp = `${path}.${process.pid}.tmp`;
    writeFileSync(tmp, bytes);
    renameSync(tmp, path);
  } catch {
    // Not writable: run from memory.
  }
  return { bytes, generated: true };
}
