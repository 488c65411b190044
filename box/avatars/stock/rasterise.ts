// Rasterises SVG with ffmpeg's librsvg decoder (the Debian ffmpeg ships it) into RGBA.
// ffmpeg 5.1's svg_pipe demuxer cannot probe stdin, so the SVG goes through a temp file.
import { spawn } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

export interface RasteriseOptions {
  ffmpegPath?: string;
  /** Kill ffmpeg after this long (ms). */
  timeoutMs?: number;
}

export async function rasteriseSvg(svg: string, width: number, height: number, opts: RasteriseOptions = {}): Promise<Uint8Array> {
  const dir = await mkdtemp(join(tmpdir(), "stock-face-"));
  const file = join(dir, "face.svg");
  try {
    await writeFile(file, svg);
    return await runFfmpeg(file, width, height, opts);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

function runFfmpeg(file: string, width: number, height: number, opts: RasteriseOptions): Promise<Uint8Array> {
  const args = [
    "-hide_banner",
    "-loglevel",
    "error",
    "-nostdin",
    "-f",
    "svg_pipe",
    "-width",
    String(width),
    "-height",
    String(height),
    "-keep_ar",
    "0",
    "-i",
    file,
    "-frames:v",
    "1",
    "-f",
    "rawvideo",
    "-pix_fmt",
    "rgba",
    "pipe:1",
  ];
  return new Promise((resolve, reject) => {
    const child = spawn(opts.ffmpegPath ?? "ffmpeg", args, { stdio: ["ignore", "pipe", "pipe"] });
    const chunks: Buffer[] = [];
    let stderr = "";
    // Generous: a one-off at start-up, and a shaded face with its soft filters takes a few
    // seconds on a loaded CPU.
    const timer = setTimeout(() => child.kill("SIGKILL"), opts.timeoutMs ?? 60_000);
    child.stdout.on("data", (c: Buffer) => chunks.push(c));
    child.stderr.on("data", (c: Buffer) => (stderr += c.toString()));
    child.on("error", (e) => {
      clearTimeout(timer);
      reject(new Error(`ffmpeg could not start to rasterise a stock face: ${e.message}`));
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      const out = Buffer.concat(chunks);
      if (code !== 0 || out.length !== width * height * 4) {
        reject(new Error(`ffmpeg svg rasterise failed (exit ${code}, ${out.length} bytes): ${stderr.trim()}`));
      } else resolve(new Uint8Array(out.buffer, out.byteOffset, out.length));
    });
  });
}
