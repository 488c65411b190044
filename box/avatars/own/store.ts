// Implements: the own-avatar store on the box volume (docs/api-notes.md "Own avatars: on the volume"):
//   <BOX_DATA_DIR>/avatars/<owner-dir>/<avatar_id>/
//     source.<png|jpg|mp4|mov|webm>   the uploaded bytes, as sent
//     source.sha256                   their SHA-256 (sha256sum format)
//     manifest.json                   the record (manifest.ts)
//     face.i420 + face.json           the prepared face: I420 at the video size, anchors, landmarks
//                                     (a video's: the first frame of its loop)
//     loop.i420 + loop.json           a video's idle loop: I420 frames back to back, anchors per frame
//     loop-<tone>.i420 + .json        the loop cut from `take__<tone>` footage
//     preview.png                     the neutral still
//     takes/<tone>__<n>.<ext>         tone footage of a video upload
//     clips/                          idle clips and their journal (box/avatars/clips/)
// Every write goes to a temp name in the same folder, then rename(2); every path is built from a
// safe id and checked to stay inside the avatars folder.
import { createHash, randomBytes } from "node:crypto";
import { mkdir, open, readdir, readFile, rename, rm, rmdir, stat, writeFile } from "node:fs/promises";
import { mkdirSync } from "node:fs";
import { join, resolve, sep } from "node:path";
import type { PreparedFace } from "../../render/prepared-face.ts";
import { OWNER_DIR, SAFE_ID, ownerDir } from "./ids.ts";
import { isTone } from "../../../shared/wire/tones.ts";
import { parseFaceMeta, parseLoopMeta, parseManifest, type FaceMeta, type LoopMeta, type OwnManifest } from "./manifest.ts";

export const INCOMING = ".incoming";
const TMP_MARK = ".tmp-";

export const sha256Hex = (b: Uint8Array) => createHash("sha256").update(b).digest("hex");

export class OwnAvatarStore {
  readonly root: string;

  constructor(dataDir: string) {
    this.root = resolve(dataDir, "avatars");
    mkdirSync(this.root, { recursive: true });
  }

  /** Refuses any path that would leave the avatars folder (defence behind the id checks). */
  private inside(...parts: string[]): string {
    const p = resolve(this.root, ...parts);
    if (!p.startsWith(this.root + sep)) throw new Error(`refused a path outside the avatars folder: ${parts.join("/")}`);
    return p;
  }

  dirOf(owner: string, id: string): string {
    if (!SAFE_ID.test(id)) throw new Error(`not a safe avatar id: ${JSON.stringify(id).slice(0, 80)}`);
    return this.inside(ownerDir(owner), id);
  }

  /** Writes `bytes` to a temp name beside `path`, then renames it over `path`. */
  async writeAtomic(path: string, bytes: Uint8Array | string): Promise<void> {
    const tmp = `${path}${TMP_MARK}${randomBytes(6).toString("hex")}`;
    try {
      await writeFile(tmp, bytes);
      await rename(tmp, path);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
  }

  /** A fresh folder under `.incoming/` for one upload's files while they are checked. */
  async stagingDir(): Promise<string> {
    const dir = this.inside(INCOMING, randomBytes(9).toString("hex"));
    await mkdir(dir, { recursive: true });
    return dir;
  }

  async discardStaging(dir: string): Promise<void> {
    if (resolve(dir).startsWith(this.inside(INCOMING) + sep)) await rm(dir, { recursive: true, force: true });
  }

  /**
   * Moves a checked upload into the avatar's folder, replacing an earlier upload of the same id:
   * the old prepared face, preview, takes and clips go first, so nothing of the old face is taken
   * for the new, and nothing of it is left for an erase order made from the old one.
   */
  async install(
    owner: string,
    id: string,
    staged: { source: string; sourceExt: string; takes: { from: string; name: string }[] },
    sha: string,
  ): Promise<void> {
    const dir = this.dirOf(owner, id);
    await mkdir(dir, { recursive: true });
    await this.clearPrepared(owner, id);
    await rm(join(dir, "takes"), { recursive: true, force: true });
    await rm(join(dir, "clips"), { recursive: true, force: true });
    for (const f of await readdir(dir)) if (f.startsWith("source.")) await rm(join(dir, f), { force: true });
    await rename(staged.source, join(dir, `source.${staged.sourceExt}`));
    await this.writeAtomic(join(dir, "source.sha256"), `${sha}  source.${staged.sourceExt}\n`);
    if (staged.takes.length) {
      await mkdir(join(dir, "takes"), { recursive: true });
      for (const t of staged.takes) await rename(t.from, join(dir, "takes", t.name));
    }
  }

  async saveManifest(m: OwnManifest): Promise<void> {
    await this.writeAtomic(join(this.dirOf(m.owner, m.avatar_id), "manifest.json"), JSON.stringify(m, null, 1));
  }

  async readSource(m: OwnManifest): Promise<Uint8Array> {
    return new Uint8Array(await readFile(join(this.dirOf(m.owner, m.avatar_id), m.source_file)));
  }

  /** A file named in the manifest (`source.<ext>`, `takes/<tone>__<n>.<ext>`), refused outside the avatar's folder. */
  fileIn(m: OwnManifest, file: string): string {
    const dir = this.dirOf(m.owner, m.avatar_id);
    const p = resolve(dir, file);
    if (!p.startsWith(dir + sep)) throw new Error(`refused a path outside the avatar's folder: ${file.slice(0, 80)}`);
    return p;
  }

  sourcePath(m: OwnManifest): string {
    return join(this.dirOf(m.owner, m.avatar_id), m.source_file);
  }

  /** Size of the stored source in bytes, or null when it is gone. */
  async sourceBytes(m: OwnManifest): Promise<number | null> {
    return stat(this.sourcePath(m)).then(
      (s) => s.size,
      () => null,
    );
  }

  /** The prepared face and its preview, written before the manifest says `ready`. */
  async savePrepared(
    owner: string,
    id: string,
    face: PreparedFace,
    meta: Omit<FaceMeta, "width" | "height" | "i420_bytes" | "anchors">,
    previewPng: Uint8Array,
  ): Promise<void> {
    const dir = this.dirOf(owner, id);
    await this.writeAtomic(join(dir, "face.i420"), face.i420);
    const full: FaceMeta = { width: face.width, height: face.height, i420_bytes: face.i420.length, anchors: face.anchors, ...meta };
    await this.writeAtomic(join(dir, "face.json"), JSON.stringify(full));
    await this.writeAtomic(join(dir, "preview.png"), previewPng);
  }

  async clearPrepared(owner: string, id: string): Promise<void> {
    const dir = this.dirOf(owner, id);
    for (const f of ["face.i420", "face.json", "preview.png"]) await rm(join(dir, f), { force: true });
    for (const f of await readdir(dir).catch(() => [] as string[]))
      if (/^loop(-[a-z]+)?\.(i420|json)$/.test(f)) await rm(join(dir, f), { force: true });
  }

  /** `loop` for the base video, `loop-<tone>` for a tone's take (tone names are a fixed vocabulary). */
  private loopPath(owner: string, id: string, tone: string | null, ext: "i420" | "json"): string {
    if (tone !== null && !isTone(tone)) throw new Error(`not a tone: ${JSON.stringify(tone).slice(0, 40)}`);
    return join(this.dirOf(owner, id), `${tone === null ? "loop" : `loop-${tone}`}.${ext}`);
  }

  /** A video's idle loop: the frames (streamed to a temp file, then renamed), then its meta. */
  async saveLoop(owner: string, id: string, tone: string | null, frames: Uint8Array[], meta: LoopMeta): Promise<void> {
    const path = this.loopPath(owner, id, tone, "i420");
    const tmp = `${path}${TMP_MARK}${randomBytes(6).toString("hex")}`;
    try {
      const fh = await open(tmp, "w");
      try {
        for (const f of frames) await fh.write(f);
      } finally {
        await fh.close();
      }
      await rename(tmp, path);
    } catch (err) {
      await rm(tmp, { force: true });
      throw err;
    }
    await this.writeAtomic(this.loopPath(owner, id, tone, "json"), JSON.stringify(meta));
  }

  /** A loop's meta, or null when it is missing, damaged, made for another size, or its frames file is short. */
  async loadLoopMeta(owner: string, id: string, tone: string | null, size: number): Promise<LoopMeta | null> {
    const meta = parseLoopMeta(await readFile(this.loopPath(owner, id, tone, "json"), "utf8").catch(() => ""));
    if (!meta || meta.width !== size || meta.height !== size || meta.frame_bytes !== (size * size * 3) / 2) return null;
    const bytes = await stat(this.loopPath(owner, id, tone, "i420")).then(
      (s) => s.size,
      () => -1,
    );
    return bytes === meta.count * meta.frame_bytes ? meta : null;
  }

  /** Frame k of a loop (`frameBytes` long), or null when the file is short or gone. */
  async readLoopFrame(owner: string, id: string, tone: string | null, k: number, frameBytes: number): Promise<Uint8Array | null> {
    const fh = await open(this.loopPath(owner, id, tone, "i420"), "r").catch(() => null);
    if (!fh) return null;
    try {
      const buf = new Uint8Array(frameBytes);
      const { bytesRead } = await fh.read(buf, 0, frameBytes, k * frameBytes);
      return bytesRead === frameBytes ? buf : null;
    } finally {
      await fh.close();
    }
  }

  /** A loop's frames, back to back. */
  async readLoopFrames(owner: string, id: string, tone: string | null): Promise<Uint8Array> {
    const b = await readFile(this.loopPath(owner, id, tone, "i420"));
    return new Uint8Array(b.buffer, b.byteOffset, b.length); // a view, not a second copy of ~80 MB
  }

  /** The prepared face, or null when a file is missing, damaged, or made for another video size. */
  async loadFace(owner: string, id: string, size: number): Promise<PreparedFace | null> {
    const dir = this.dirOf(owner, id);
    const meta = parseFaceMeta(await readFile(join(dir, "face.json"), "utf8").catch(() => ""));
    if (!meta || meta.width !== size || meta.height !== size) return null;
    const i420 = await readFile(join(dir, "face.i420")).catch(() => null);
    if (!i420 || i420.length !== meta.i420_bytes || i420.length !== (size * size * 3) / 2) return null;
    return { width: meta.width, height: meta.height, i420: new Uint8Array(i420), anchors: meta.anchors as PreparedFace["anchors"] };
  }

  async readPreview(owner: string, id: string): Promise<Uint8Array | null> {
    return readFile(join(this.dirOf(owner, id), "preview.png")).then(
      (b) => new Uint8Array(b),
      () => null,
    );
  }

  async remove(owner: string, id: string): Promise<void> {
    await rm(this.dirOf(owner, id), { recursive: true, force: true });
    await rmdir(this.inside(ownerDir(owner))).catch(() => undefined); // only when empty
  }

  /** Every manifest on the volume; a folder whose manifest is missing or damaged is reported, not loaded. */
  async list(log: (msg: string, path: string) => void = () => undefined): Promise<OwnManifest[]> {
    const out: OwnManifest[] = [];
    for (const o of await readdir(this.root).catch(() => [] as string[])) {
      if (!OWNER_DIR.test(o)) continue;
      for (const id of await readdir(this.inside(o)).catch(() => [] as string[])) {
        if (!SAFE_ID.test(id)) continue;
        const path = this.inside(o, id, "manifest.json");
        const m = parseManifest(await readFile(path, "utf8").catch(() => ""));
        if (!m || m.avatar_id !== id || ownerDir(m.owner) !== o) log("own avatar skipped: manifest missing or damaged", path);
        else out.push(m);
      }
    }
    return out;
  }

  /** At start: uploads cut off mid-check and temp files of writes cut off mid-write are removed. */
  async sweep(): Promise<void> {
    await rm(this.inside(INCOMING), { recursive: true, force: true });
    for (const o of await readdir(this.root).catch(() => [] as string[])) {
      if (!OWNER_DIR.test(o)) continue;
      for (const id of await readdir(this.inside(o)).catch(() => [] as string[])) {
        if (!SAFE_ID.test(id)) continue;
        for (const f of await readdir(this.inside(o, id)).catch(() => [] as string[])) {
          if (f.includes(TMP_MARK)) await rm(this.inside(o, id, f), { force: true });
        }
      }
    }
  }
}
