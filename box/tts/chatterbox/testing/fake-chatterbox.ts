// A local devnen/Chatterbox-TTS-Server on 127.0.0.1:0 (node:http: runs under Node and Bun),
// speaking its wire protocol (docs/providers.md §3.1 and §6.5): `POST /tts` answering a real 24 kHz
// PCM16 WAV (a modulated tone, ~60 ms per character), streamed with placeholder sizes when
// `stream: true`; the voice and reference-file lists; `POST /upload_reference` (multipart, field
// `files`); `GET /api/model-info`; FastAPI `{"detail": ...}` errors. Switches make it fail.
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { decodeWav, encodeWav } from "../../wav.ts";
import { parseMultipart, sanitizeFilename, type UploadedPart } from "./fake-multipart.ts";

export interface FakeChatterboxOptions {
  /** Files in `voices/` (display names are made from them as the server does). */
  predefined?: string[];
  /** Files in `reference_audio/`. */
  references?: string[];
  sampleRate?: number;
  msPerChar?: number;
  multilingual?: boolean;
  maxReferenceSeconds?: number;
  /** A proxy's key in front of the server: requests without `Bearer <key>` get 401. */
  apiKey?: string;
  /** Listen on this loopback port (a server coming up where a box already points); default any free one. */
  port?: number;
}

/** Faults, changeable at any time with `set`. */
export interface FakeChatterboxSwitches {
  /** Every route answers this status with a FastAPI body (500 by default). */
  fail?: { status?: number; detail: string } | null;
  /** `/tts` answers 200 with an HTML page. */
  garbage?: boolean;
  /** Every route reads the request and never answers. */
  hang?: boolean;
  /** `/tts` sends the WAV header and part of the audio, then drops the connection. */
  closeMidResponse?: boolean;
  /** false: `/tts` is 503 and model-info says `loaded: false`. */
  modelLoaded?: boolean;
  /** Before every answer. */
  latencyMs?: number;
  /** `stream: true`: pause before each block after the first. */
  streamGapMs?: number;
}

export interface FakeChatterboxRequest {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  json?: any;
  files?: UploadedPart[];
  /** Resolves when the client's connection closes. */
  closed: Promise<void>;
}

export class FakeChatterbox {
  readonly requests: FakeChatterboxRequest[] = [];
  readonly switches: FakeChatterboxSwitches = { modelLoaded: true, streamGapMs: 5 };
  private readonly voices = new Map<string, Uint8Array | null>();
  private readonly references = new Map<string, Uint8Array | null>();
  private readonly sockets = new Set<Socket>();
  private server: Server | undefined;
  private base = "";

  private constructor(private readonly o: FakeChatterboxOptions) {
    for (const f of o.predefined ?? ["Emily.wav", "Abigail.wav", "Thomas.wav"]) this.voices.set(f, null);
    for (const f of o.references ?? ["Gianna.wav"]) this.references.set(f, null);
  }

  static async start(options: FakeChatterboxOptions = {}): Promise<FakeChatterbox> {
    const fake = new FakeChatterbox(options);
    const server = createServer((req, res) => void fake.dispatch(req, res));
    server.on("connection", (s: Socket) => {
      fake.sockets.add(s);
      s.once("close", () => fake.sockets.delete(s));
    });
    await new Promise<void>((resolve, reject) => server.once("error", reject).listen(options.port ?? 0, "127.0.0.1", resolve));
    fake.server = server;
    fake.base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return fake;
  }

  get url(): string {
    return this.base;
  }

  get sampleRate(): number {
    return this.o.sampleRate ?? 24_000;
  }

  /** Samples `/tts` answers for `text` at speed 1. */
  samplesFor(text: string): number {
    return Math.round(((text.length * (this.o.msPerChar ?? 60)) / 1000) * this.sampleRate);
  }

  set(switches: FakeChatterboxSwitches): this {
    Object.assign(this.switches, switches);
    return this;
  }

  /** The file vanishes from `voices/` or `reference_audio/` (as when deleted on the server). */
  deleteVoice(file: string): this {
    this.voices.delete(file);
    this.references.delete(file);
    return this;
  }

  /** Bytes of an uploaded reference file. */
  referenceFile(file: string): Uint8Array | null | undefined {
    return this.references.get(file);
  }

  async close(): Promise<void> {
    const server = this.server;
    if (!server) return;
    this.server = undefined;
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  private async dispatch(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    const path = (req.url ?? "/").split("?")[0];
    const socket = req.socket;
    const closed = socket.destroyed ? Promise.resolve() : new Promise<void>((r) => socket.once("close", () => r()));
    const rec: FakeChatterboxRequest = { method: req.method ?? "", path, headers: req.headers, closed };
    const type = String(req.headers["content-type"] ?? "");
    if (type.startsWith("application/json")) {
      try {
        rec.json = JSON.parse(body.toString("utf8"));
      } catch {
        rec.json = undefined;
      }
    } else if (type.startsWith("multipart/form-data")) rec.files = parseMultipart(body, type);
    this.requests.push(rec);

    const sw = this.switches;
    if (sw.hang) return; // the socket is destroyed on close()
    if (sw.latencyMs) await sleep(sw.latencyMs);
    if (this.o.apiKey && req.headers.authorization !== `Bearer ${this.o.apiKey}`) return detail(res, 401, "Not authenticated");
    if (sw.fail) return detail(res, sw.fail.status ?? 500, sw.fail.detail);
    const route = `${rec.method} ${path}`;
    switch (route) {
      case "POST /tts":
        return this.tts(rec, res);
      case "GET /get_predefined_voices":
        return json(
          res,
          200,
          [...this.voices.keys()].sort().map((f) => ({ display_name: displayName(f), filename: f })),
        );
      case "GET /get_reference_files":
        return json(res, 200, [...this.references.keys()].sort());
      case "POST /upload_reference":
        return this.upload(rec, res);
      case "GET /api/model-info":
        return json(res, 200, this.modelInfo());
    }
    return detail(res, 404, "Not Found");
  }

  private modelInfo(): Record<string, unknown> {
    const multi = this.o.multilingual === true;
    return {
      loaded: this.switches.modelLoaded !== false,
      type: multi ? "multilingual" : "turbo",
      class_name: multi ? "ChatterboxMultilingualTTS" : "ChatterboxTurboTTS",
      device: "cpu",
      sample_rate: this.sampleRate,
      supports_paralinguistic_tags: !multi,
      available_paralinguistic_tags: multi ? [] : ["[laugh]", "[cough]", "[chuckle]"],
      turbo_available_in_package: true,
      multilingual_available_in_package: true,
      supports_multilingual: multi,
      supported_languages: multi ? { en: "English", de: "German", fr: "French", ja: "Japanese" } : { en: "English" },
    };
  }

  private async tts(rec: FakeChatterboxRequest, res: ServerResponse): Promise<void> {
    const b = rec.json;
    if (!b || typeof b !== "object") return invalid(res, [], "Input should be a valid dictionary or object to extract fields from");
    if (typeof b.text !== "string" || b.text.length < 1) return invalid(res, ["body", "text"], "String should have at least 1 character");
    if (b.voice_mode !== undefined && b.voice_mode !== "predefined" && b.voice_mode !== "clone")
      return invalid(res, ["body", "voice_mode"], "Input should be 'predefined' or 'clone'");
    if (b.chunk_size !== undefined && (b.chunk_size < 50 || b.chunk_size > 500))
      return invalid(res, ["body", "chunk_size"], "Input should be between 50 and 500");
    if (this.switches.modelLoaded === false) return detail(res, 503, "TTS engine model is not currently loaded or available.");
    const clone = b.voice_mode === "clone";
    const file: unknown = clone ? b.reference_audio_filename : b.predefined_voice_id;
    if (typeof file !== "string" || !file)
      return detail(
        res,
        400,
        clone ? "Missing 'reference_audio_filename' for 'clone' voice mode." : "Missing 'predefined_voice_id' for 'predefined' voice mode.",
      );
    if (/[/\\]|\.\./.test(file)) return detail(res, 400, "Invalid voice file name.");
    if (!(clone ? this.references : this.voices).has(file)) {
      return detail(res, 404, clone ? `Reference audio file '${file}' not found.` : `Predefined voice file '${file}' not found.`);
    }
    if (this.switches.garbage) {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      return void res.end("<html><body>It works!</body></html>");
    }
    const speed = typeof b.speed_factor === "number" && b.speed_factor > 0 ? b.speed_factor : 1;
    const pcm = tone(this.samplesFor(b.text) / speed, this.sampleRate, pitchOf(file, clone));
    const headers = { "content-type": "audio/wav", "content-disposition": 'attachment; filename="tts_output_T08_E13_W05_fake.wav"' };
    res.writeHead(200, headers); // no content-length: StreamingResponse sends it chunked
    if (this.switches.closeMidResponse) {
      const wav = encodeWav(pcm, this.sampleRate);
      res.write(wav.subarray(0, 44 + Math.floor(pcm.length / 2) * 2));
      await sleep(20);
      return void res.socket?.destroy();
    }
    if (b.stream !== true) {
      const wav = encodeWav(pcm, this.sampleRate);
      const third = Math.floor(wav.length / 3) | 1; // odd cuts: a sample straddles two writes
      for (const at of [0, third, 2 * third]) res.write(wav.subarray(at, at === 2 * third ? wav.length : at + third));
      return void res.end();
    }
    // v2.0.0 stream: one header with placeholder sizes, then PCM per sentence.
    const header = encodeWav(new Int16Array(0), this.sampleRate);
    const v = new DataView(header.buffer);
    v.setUint32(4, 0xffffffff, true);
    v.setUint32(40, 0xffffffff, true);
    res.write(header.subarray(0, 21));
    res.write(header.subarray(21));
    const sentences = b.text.match(/[^.!?]+[.!?]*\s*/g) ?? [b.text];
    let at = 0;
    for (const [i, s] of sentences.entries()) {
      const n = i === sentences.length - 1 ? pcm.length - at : Math.round((pcm.length * s.length) / b.text.length);
      if (i > 0) await sleep(this.switches.streamGapMs ?? 5);
      if (res.destroyed) return;
      const block = pcm.slice(at, at + n);
      at += n;
      res.write(new Uint8Array(block.buffer));
    }
    res.end();
  }

  private upload(rec: FakeChatterboxRequest, res: ServerResponse): void {
    const files = (rec.files ?? []).filter((p) => p.field === "files");
    if (files.length === 0) return invalid(res, ["body", "files"], "Field required");
    const uploaded: string[] = [];
    const errors: { filename: string; error: string }[] = [];
    const max = this.o.maxReferenceSeconds ?? 30;
    for (const f of files) {
      if (!f.filename) {
        errors.push({ filename: "Unknown", error: "File received with no filename." });
        continue;
      }
      const safe = sanitizeFilename(f.filename);
      if (!/\.(wav|mp3)$/i.test(safe)) {
        errors.push({ filename: f.filename, error: "Invalid file type. Only .wav and .mp3 are allowed." });
        continue;
      }
      if (this.references.has(safe)) {
        if (!uploaded.includes(safe)) uploaded.push(safe); // kept, not overwritten
        continue;
      }
      const seconds = wavSeconds(f.bytes);
      if (seconds !== null && seconds > max) {
        errors.push({ filename: safe, error: `Reference audio duration (${seconds.toFixed(2)}s) exceeds maximum allowed (${max}s).` });
        continue;
      }
      this.references.set(safe, f.bytes);
      uploaded.push(safe);
    }
    const status = errors.length === 0 || uploaded.length > 0 ? 200 : 400;
    json(res, status, {
      message: `Processed ${files.length} file(s).`,
      uploaded_files: uploaded,
      all_reference_files: [...this.references.keys()].sort(),
      errors,
    });
  }
}

/** A tone at `hz` whose loudness swells four times a second, like syllables. */
export function tone(samples: number, rate: number, hz: number): Int16Array {
  const out = new Int16Array(Math.max(0, Math.round(samples)));
  for (let i = 0; i < out.length; i++) {
    const t = i / rate;
    out[i] = Math.round(9000 * (0.6 + 0.4 * Math.sin(2 * Math.PI * 4 * t)) * Math.sin(2 * Math.PI * hz * t));
  }
  return out;
}

/** Each voice file sounds different, so a test can tell which one spoke. */
function pitchOf(file: string, clone: boolean): number {
  let h = 0;
  for (const c of file) h = (h * 31 + c.charCodeAt(0)) % 97;
  return (clone ? 300 : 120) + h;
}

function displayName(file: string): string {
  const base = file.replace(/\.[^.]+$/, "").replace(/[_-]/g, " ");
  return (
    base
      .split(/\s+/)
      .filter(Boolean)
      .map((w) => w[0].toUpperCase() + w.slice(1).toLowerCase())
      .join(" ") || file
  );
}

function wavSeconds(bytes: Uint8Array): number | null {
  try {
    const { pcm, sampleRate } = decodeWav(bytes);
    return pcm.length / sampleRate;
  } catch {
    return null;
  }
}

function json(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

function detail(res: ServerResponse, status: number, text: string): void {
  json(res, status, { detail: text });
}

/** FastAPI's 422 for a request that does not fit the model. */
function invalid(res: ServerResponse, loc: string[], msg: string): void {
  json(res, 422, { detail: [{ type: "value_error", loc, msg, input: null }] });
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));
