// The `file` form of the asset store (Node/Bun only; the portal's Web-standard core never imports
// it): a key is a plain file under the root, written to a dot-named temp file in its folder (never
// listed as a key) and renamed, so a reader sees the old bytes or the new, never half of them.
// The box's archive folder and the portal's FileAssetStore both write through here.
import { randomBytes } from "node:crypto";
import { mkdir, rename, rm, writeFile } from "node:fs/promises";
import { dirname, join, resolve, sep } from "node:path";
import { isAssetKey } from "./asset-keys.ts";

/** The file of a key under `root`; keys are checked, and the path again to stay inside the root. */
export function assetPath(root: string, key: string): string {
  if (!isAssetKey(key)) throw new Error(`not an asset key: ${JSON.stringify(key).slice(0, 80)}`);
  const p = resolve(root, ...key.split("/"));
  if (!p.startsWith(resolve(root) + sep)) throw new Error(`refused a path outside the asset folder: ${key}`);
  return p;
}

export async function writeAssetFile(root: string, key: string, bytes: Uint8Array): Promise<void> {
  const path = assetPath(root, key);
  const tmp = join(dirname(path), `.${randomBytes(6).toString("hex")}.tmp`);
  try {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(tmp, bytes);
    await rename(tmp, path);
  } catch (err) {
    await rm(tmp, { force: true }).catch(() => undefined);
    throw err;
  }
}
