// Face preparation in a child process: the landmark models (TensorFlow.js on WASM) compute
// synchronously for hundreds of milliseconds per photo and much longer per video, which would stall
// the live session's frame clock in the box's own thread. The child gets its input in a folder,
// writes its result there (typed arrays as files beside a JSON), and exits; a crash or a runaway
// decode costs only the child. Run as `bun box/faces/prepare-child.ts <folder>`.
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { spawn } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PhotoFaceError } from "./photo-error.ts";

type Kind = "photo" | "video";
const TYPED = { Uint8Array, Int16Array, Float32Array, Float64Array, Int32Array, Uint16Array } as const;
type TypedName = keyof typeof TYPED;

/** A value with its typed arrays moved out into files `blob-<n>.bin` of `dir`. */
function pack(value: unknown, dir: string, counter = { n: 0 }): unknown {
  if (ArrayBuffer.isView(value)) {
    const name = value.constructor.name as TypedName;
    if (!(name in TYPED)) throw new Error(`cannot pass a ${name} between processes`);
    const n = counter.n++;
    writeFileSync(join(dir, `blob-${n}.bin`), new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
    return { $blob: n, type: name };
  }
  if (Array.isArray(value)) return value.map((v) => pack(v, dir, counter));
  if (value && typeof value === "object") return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, pack(v, dir, counter)]));
  return value;
}

function unpack(value: unknown, dir: string): unknown {
  if (Array.isArray(value)) return value.map((v) => unpack(v, dir));
  if (value && typeof value === "object") {
    const o = value as Record<string, unknown>;
    if (typeof o.$blob === "number" && typeof o.type === "string" && o.type in TYPED) {
      const bytes = readFileSync(join(dir, `blob-${o.$blob}.bin`));
      const Ctor = TYPED[o.type as TypedName];
      const copy = new Uint8Array(bytes.byteLength);
      copy.set(bytes);
      return new Ctor(copy.buffer, 0, copy.byteLength / Ctor.BYTES_PER_ELEMENT);
    }
    return Object.fromEntries(Object.entries(o).map(([k, v]) => [k, unpack(v, dir)]));
  }
  return value;
}

async function runHere(kind: Kind, input: unknown, opts: unknown): Promise<unknown> {
  if (kind === "photo") {
    const { preparePhoto } = await import("./prepare-photo.ts");
    return preparePhoto(input as Uint8Array, opts as Parameters<typeof preparePhoto>[1]);
  }
  const { prepareVideo } = await import("./prepare-video.ts");
  return prepareVideo(input as Parameters<typeof prepareVideo>[0], opts as Parameters<typeof prepareVideo>[1]);
}

/**
 * Runs a preparation in a child Bun process when the box runs on Bun (else here, as in unit
 * tests under Node). A PhotoFaceError in the child is a PhotoFaceError here, message intact.
 */
export async function prepareInChild<T>(kind: Kind, input: unknown, opts: unknown): Promise<T> {
  if (!process.versions.bun) return (await runHere(kind, input, opts)) as T;
  const dir = mkdtempSync(join(tmpdir(), "face-prep-"));
  try {
    writeFileSync(join(dir, "request.json"), JSON.stringify({ kind, input: pack(input, dir, { n: 1_000_000 }), opts }));
    const child = spawn(process.execPath, [new URL(import.meta.url).pathname, dir], { stdio: ["ignore", "ignore", "pipe"] });
    let stderr = "";
    child.stderr!.on("data", (d) => (stderr = (stderr + d).slice(-4000)));
    const code = await new Promise<number | null>((resolve, reject) => child.once("error", reject).once("close", resolve));
    let answer: { ok: boolean; result?: unknown; error?: string; faceError?: boolean };
    try {
      answer = JSON.parse(readFileSync(join(dir, "response.json"), "utf8"));
    } catch {
      throw new Error(`face preparation stopped (exit ${code}): ${stderr.trim().split("\n").at(-1) ?? "no reason given"}`);
    }
    if (!answer.ok)
      throw answer.faceError ? new PhotoFaceError(answer.error ?? "The face could not be prepared.") : new Error(answer.error);
    return unpack(answer.result, dir) as T;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function childMain(dir: string): Promise<void> {
  try {
    const req = JSON.parse(readFileSync(join(dir, "request.json"), "utf8")) as { kind: Kind; input: unknown; opts: unknown };
    const result = await runHere(req.kind, unpack(req.input, dir), req.opts);
    for (const f of readdirSync(dir)) if (f.startsWith("blob-")) rmSync(join(dir, f));
    writeFileSync(join(dir, "response.json"), JSON.stringify({ ok: true, result: pack(result, dir) }));
  } catch (err) {
    writeFileSync(
      join(dir, "response.json"),
      JSON.stringify({ ok: false, error: (err as Error)?.message ?? String(err), faceError: err instanceof PhotoFaceError }),
    );
  }
  process.exit(0); // the WASM backend keeps handles open
}

if (import.meta.main) void childMain(process.argv[2]);
