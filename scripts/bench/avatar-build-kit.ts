// Helpers of the avatar-build benchmark (scripts/bench/avatar-build.ts): the figure line, the
// machine line, the test inputs made with ffmpeg, the shared database with a key and an upload
// attestation, and a keyed HTTP client for the avatar and clip routes.
import { execFileSync, spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { createClient, type Client } from "@libsql/client";
import { migrateKeyTable } from "../../shared/key-table/migrate.ts";
import { migrateAvatarTables } from "../../shared/avatar-tables/migrate.ts";
import { TONES } from "../../shared/wire/tones.ts";
import { sha256Hex } from "../../box/auth/principal.ts";
import { sleep } from "./bench-kit.ts";

export const BENCH = "avatar-build";
export const ALL_TONES = TONES.join(",");
const FFMPEG = "/usr/bin/ffmpeg";
const SAMPLE = new URL("../../node_modules/@vladmandic/face-api/demo/sample2.jpg", import.meta.url);

const round = (x: number, digits = 1) => (Number.isFinite(x) ? +x.toFixed(digits) : null);

/** One figure: `{bench, figure, value, unit, goal, met}` plus any detail fields. */
export function figure(
  name: string,
  value: number,
  unit: string,
  goal: string | null,
  met: boolean | null,
  extra: Record<string, unknown> = {},
): void {
  const digits = unit === "ms" ? 0 : unit === "fps" ? 1 : 2;
  console.log(JSON.stringify({ bench: BENCH, figure: name, value: round(value, digits), unit, goal, met, ...extra }));
}

/** The machine: `nproc`, the CPU model from /proc/cpuinfo, the load average (it may be shared). */
export function machineLine(at: string): void {
  let nproc = cpus().length;
  try {
    nproc = Number(execFileSync("nproc", { encoding: "utf8" }).trim());
  } catch {}
  const model = /^model name\s*:\s*(.+)$/m.exec(readFileSync("/proc/cpuinfo", "utf8"))?.[1] ?? cpus()[0]?.model;
  const runtime = process.versions.bun ? `bun ${process.versions.bun}` : `node ${process.versions.node}`;
  console.log(
    JSON.stringify({ bench: BENCH, figure: "machine", at, nproc, cpu: model, loadavg: loadavg().map((x) => round(x, 2)), runtime }),
  );
}

function ffmpeg(args: string[]): void {
  const r = spawnSync(FFMPEG, ["-v", "error", "-y", ...args], { encoding: "utf8", timeout: 120_000 });
  if (r.status !== 0) throw new Error(`ffmpeg ${args.join(" ")} failed: ${r.stderr}`);
}

/**
 * The inputs: a 1024x1024 JPEG (the centre square of face-api's sample2.jpg, which shows three
 * people; the box takes the largest face) and a 10 s 1280x720 25 fps H.264 video of it: a
 * window over the middle person's face that drifts and zooms slowly.
 */
export function makeInputs(dir: string): { photo: Uint8Array; video: Uint8Array } {
  const photo = join(dir, "photo-1024.jpg");
  const video = join(dir, "video-720p.mp4");
  ffmpeg(["-i", SAMPLE.pathname, "-vf", "crop=ih:ih:(iw-ih)/2:0,scale=1024:1024", "-q:v", "2", photo]);
  // A 16:9 band of the photo's top, then a window around the middle face (the largest in the
  // video) that drifts and zooms slowly (zoompan), so the face moves in the frame.
  const vf = [
    "crop=1024:576:0:0",
    "zoompan=z='1.35+0.05*sin(in/20)':x='540-iw/zoom/2+40*sin(in/22)':y='270-ih/zoom/2+25*sin(in/17)':d=1:s=1280x720:fps=25",
    "setsar=1",
  ].join(",");
  ffmpeg([
    "-loop",
    "1",
    "-framerate",
    "25",
    "-i",
    photo,
    "-t",
    "10",
    "-vf",
    vf,
    "-c:v",
    "libx264",
    "-preset",
    "veryfast",
    "-crf",
    "23",
    "-pix_fmt",
    "yuv420p",
    "-movflags",
    "+faststart",
    video,
  ]);
  return { photo: new Uint8Array(readFileSync(photo)), video: new Uint8Array(readFileSync(video)) };
}

/** A migrated libSQL file with one full API key and an upload attestation of `attested`'s bytes. */
export async function sharedDatabase(
  dir: string,
  key: string,
  consentId: string,
  attested: Uint8Array,
): Promise<{ url: string; db: Client }> {
  const url = `file:${join(dir, "shared.db")}`;
  const db = createClient({ url });
  await migrateKeyTable(db);
  await migrateAvatarTables(db);
  await db.execute({
    sql: "INSERT INTO credentials (id, kind, scope, owner, created_at) VALUES (?, 'api_key', 'full', ?, 0)",
    args: [sha256Hex(key), "bench@avatar-build.test"],
  });
  const sha = createHash("sha256").update(attested).digest("hex");
  await db.execute({
    sql: "INSERT INTO upload_attestations (consent_id, sha256, attested_at, source_kind) VALUES (?, ?, 0, 'photo')",
    args: [consentId, sha],
  });
  return { url, db };
}

/** The box's own sentence about an avatar (its library observation's `detail`, written just after a change). */
export async function observedDetail(db: Client, avatarId: string): Promise<string | null> {
  for (let i = 0; i < 20; i++) {
    const r = await db.execute({ sql: "SELECT state, detail FROM avatar_observations WHERE avatar_id = ?", args: [avatarId] });
    const row = r.rows[0];
    if (row && row.state !== "preparing") return String(row.detail);
    await sleep(100);
  }
  return null;
}

export interface Answer {
  status: number;
  json: any;
}

/** The box's routes as the uploader (one key) calls them. */
export class BoxCalls {
  constructor(
    readonly url: string,
    private readonly key: string,
  ) {}

  async call(method: string, path: string, body?: FormData | object): Promise<Answer> {
    const headers: Record<string, string> = { "x-api-key": this.key };
    let payload: BodyInit | undefined;
    if (body instanceof FormData) payload = body;
    else if (body) (payload = JSON.stringify(body)), (headers["content-type"] = "application/json");
    const res = await fetch(this.url + path, { method, headers, body: payload });
    const text = await res.text();
    let json: any = null;
    try {
      json = JSON.parse(text);
    } catch {
      json = { text: text.slice(0, 300) };
    }
    return { status: res.status, json };
  }

  upload(file: Uint8Array, filename: string, fields: Record<string, string>): Promise<Answer> {
    const f = new FormData();
    f.append("file", new File([file as Uint8Array<ArrayBuffer>], filename));
    for (const [k, v] of Object.entries(fields)) f.append(k, v);
    return this.call("POST", "/api/avatar", f);
  }

  /** Polls GET /api/avatars until `avatar` is a ready group; throws when its build failed. */
  async untilReady(avatar: string, pollMs: number, timeoutMs: number): Promise<{ at: number; journal: any[] }> {
    const deadline = performance.now() + timeoutMs;
    for (;;) {
      const { json } = await this.call("GET", "/api/avatars");
      const at = performance.now();
      const journal = (json?.builds?.[avatar] ?? []) as any[];
      const preparing = ((json?.preparing ?? []) as string[]).some((v) => v === avatar || v.startsWith(`${avatar}__`));
      if (!preparing && json?.groups?.some((g: { id: string }) => g.id === avatar)) return { at, journal };
      if (!preparing && journal.at(-1)?.state === "failed") throw new Error(`${avatar} failed: ${JSON.stringify(journal.at(-1))}`);
      if (at > deadline) throw new Error(`${avatar} not ready after ${timeoutMs} ms: ${JSON.stringify(journal.slice(-3))}`);
      await sleep(pollMs);
    }
  }

  /** Asks for every tone's clip: one `POST /api/avatar/clips/retry` per tone (each must be 202). */
  async requestClips(avatar: string): Promise<void> {
    for (const tone of TONES) {
      const r = await this.call("POST", "/api/avatar/clips/retry", { avatar, tone });
      if (r.status !== 202) throw new Error(`clip ${avatar}/${tone}: ${r.status} ${JSON.stringify(r.json)}`);
    }
  }

  /** Polls GET /api/avatar/clips until no tone is `generating`; each tone's first-seen finish time. */
  async untilClips(
    avatar: string,
    pollMs: number,
    timeoutMs: number,
  ): Promise<{ at: number; rows: any[]; doneAt: Record<string, number> }> {
    const deadline = performance.now() + timeoutMs;
    const doneAt: Record<string, number> = {};
    for (;;) {
      const { json } = await this.call("GET", `/api/avatar/clips?avatar=${encodeURIComponent(avatar)}`);
      const at = performance.now();
      const rows = (json?.clips ?? []) as any[];
      for (const r of rows) if (r.state !== "generating") doneAt[r.tone] ??= at;
      if (rows.length === TONES.length && rows.every((r) => r.state !== "generating")) return { at, rows, doneAt };
      if (at > deadline) throw new Error(`clips of ${avatar} not done after ${timeoutMs} ms: ${JSON.stringify(rows)}`);
      await sleep(pollMs);
    }
  }
}

/** Jiffies of the whole machine (all CPUs) from /proc/stat: busy and total. */
export function machineTicks(): { busy: number; total: number } {
  const f = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1, 9).map(Number);
  const total = f.reduce((a, b) => a + b, 0);
  return { busy: total - f[3] - f[4], total }; // idle and iowait are not busy
}

/** How busy the whole machine was between two readings, % of all its cores. */
export function machineBusyPct(a: { busy: number; total: number }, b: { busy: number; total: number }): number {
  return +((100 * (b.busy - a.busy)) / Math.max(1, b.total - a.total)).toFixed(1);
}

/** Frames per second in consecutive whole 1 s windows of [from, to) over frame arrival times. */
export function fpsWindows(times: number[], from: number, to: number): number[] {
  const out: number[] = [];
  for (let s = from; s + 1000 <= to; s += 1000) out.push(times.filter((t) => t >= s && t < s + 1000).length);
  return out;
}

/** Frames per second over [from, to) (any length) and the longest gap between two frames in it. */
export function fpsOver(times: number[], from: number, to: number): { fps: number; maxGapMs: number } {
  const inside = times.filter((t) => t >= from && t < to);
  let gap = 0;
  for (let i = 1; i < inside.length; i++) gap = Math.max(gap, inside[i] - inside[i - 1]);
  return { fps: (inside.length * 1000) / Math.max(1, to - from), maxGapMs: Math.round(gap) };
}

export function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  if (s.length === 0) return NaN;
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
}
