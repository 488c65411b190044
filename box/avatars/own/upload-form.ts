// Implements: the multipart bodies of POST /api/avatar and POST /v1/photo_avatar.create (spec
// "Box: avatars and clips", both part tables): body limit, part names and types, the file's kind
// from its bytes, and the header checks that refuse a bad image before anything decodes it.
import { readBodyCapped } from "../../http/capped-body.ts";
import { ApiError, type Envelope } from "../../../shared/errors/api-error.ts";
import {
  BadImage,
  IMAGE_EXTENSIONS,
  TAKE_EXTENSIONS,
  VIDEO_EXTENSIONS,
  extensionOf,
  familyOf,
  imageHeader,
  sniff,
  type ImageHeader,
  type SniffedKind,
} from "./sniff.ts";
import type { ErrorCode } from "../../../shared/wire/error-codes.ts";

export interface AvatarUploadLimits {
  /** The whole multipart body (413 `body_too_large` beyond). */
  maxBodyBytes: number;
  /** Pixels of a still, read from its header before any decoding. */
  maxImagePixels: number;
  maxTakes: number;
}
export const UPLOAD_LIMITS: AvatarUploadLimits = { maxBodyBytes: 50 * 1024 * 1024, maxImagePixels: 50_000_000, maxTakes: 12 };

export interface UploadedFile {
  /** The filename as sent (display only). */
  name: string;
  bytes: Uint8Array;
  kind: SniffedKind;
  /** Extension the file is stored under, from its bytes. */
  ext: string;
  image: ImageHeader | null;
}

export interface UploadedTake {
  tone: string;
  /** 0 for `take__<tone>`, n for `take__<tone>__<n>`. */
  n: number;
  file: UploadedFile;
}

export interface ParsedUpload {
  file: UploadedFile;
  fields: Partial<Record<TextField, string>>;
  takes: UploadedTake[];
}

const TEXT_FIELDS = ["tones", "consent_token", "framing", "gesture_amplitude", "ai_generated", "avatar_id"] as const;
type TextField = (typeof TEXT_FIELDS)[number];
const TAKE = /^take__([^_]+(?:_[^_]+)*)(?:__([0-9]{1,2}))?$/;
const STORED_EXT: Record<SniffedKind, string> = { png: "png", jpeg: "jpg", mp4: "mp4", mov: "mov", webm: "webm", mkv: "mkv" };

const bad = (code: ErrorCode, message: string, env: Envelope) => new ApiError(400, code, message, env);
const show = (s: string) => JSON.stringify(s.length > 60 ? `${s.slice(0, 60)}…` : s);

/** Reads the body up to the limit (counting bytes as they arrive, whatever Content-Length says). */
export async function readMultipart(request: Request, limits: AvatarUploadLimits, env: Envelope): Promise<FormData> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\s*;/i.test(type) || !/boundary=/i.test(type)) {
    throw bad("invalid_body", "Send the upload as multipart/form-data with a part named file.", env);
  }
  const mb = Math.round(limits.maxBodyBytes / (1024 * 1024));
  const tooLarge = () => new ApiError(413, "body_too_large", `The upload is over ${mb} MB.`, env);
  const body = await readBodyCapped(request, limits.maxBodyBytes, tooLarge);
  try {
    return await new Response(body, { headers: { "content-type": type } }).formData();
  } catch {
    throw bad("invalid_body", "The multipart body could not be read (a broken boundary or a truncated part).", env);
  }
}

/** A name for what the bytes are when they are not what we take, for a readable refusal. */
function whatItIs(b: Uint8Array): string {
  const head = String.fromCharCode(...b.subarray(0, 8));
  if (head.startsWith("PK\x03\x04")) return "a zip archive";
  if (head.startsWith("GIF8")) return "a GIF image";
  if (head.startsWith("%PDF")) return "a PDF document";
  if (head.startsWith("RIFF")) return "a RIFF file (WebP, WAV or AVI)";
  if (b.length >= 12 && String.fromCharCode(...b.subarray(4, 12)).match(/^ftyp(heic|heix|mif1|avif)/)) return "a HEIC/AVIF image";
  if (b.length === 0) return "empty";
  return "not a recognised image or video";
}

async function checkedFile(
  part: File,
  allowed: Record<string, SniffedKind>,
  what: string,
  limits: AvatarUploadLimits,
  env: Envelope,
): Promise<UploadedFile> {
  const name = part.name ?? "";
  const ext = extensionOf(name);
  const wanted = Object.keys(allowed)
    .map((e) => `.${e}`)
    .join(" ");
  if (!(ext in allowed)) throw bad("unsupported_file", `${what} ${show(name)} must end ${wanted}.`, env);
  const bytes = new Uint8Array(await part.arrayBuffer());
  if (bytes.length === 0) throw bad("unsupported_file", `${what} ${show(name)} is empty.`, env);
  const kind = sniff(bytes);
  if (!kind) throw bad("unsupported_file", `${what} ${show(name)} is ${whatItIs(bytes)}, not a ${wanted} file.`, env);
  if (familyOf(kind) !== familyOf(allowed[ext])) {
    throw bad(
      "unsupported_file",
      `${what} ${show(name)} is named like ${familyOf(allowed[ext]) === "image" ? "an image" : "a video"} but its bytes are ${kind.toUpperCase()} ${familyOf(kind)}.`,
      env,
    );
  }
  if (!Object.values(allowed).includes(kind) && !(kind === "mkv" && Object.values(allowed).includes("webm"))) {
    throw bad("unsupported_file", `${what} ${show(name)} is ${kind.toUpperCase()}; accepted: ${wanted}.`, env);
  }
  let image: ImageHeader | null = null;
  if (kind === "png" || kind === "jpeg") {
    try {
      image = imageHeader(kind, bytes);
    } catch (err) {
      if (err instanceof BadImage) throw bad("unsupported_file", `${what} ${show(name)}: ${err.message}`, env);
      throw err;
    }
    const px = image.width * image.height;
    if (px > limits.maxImagePixels) {
      throw bad(
        "image_too_large",
        `${what} ${show(name)} is ${image.width}x${image.height} (${Math.round(px / 1e6)} MP); at most ${Math.round(limits.maxImagePixels / 1e6)} MP is accepted. Scale it down first.`,
        env,
      );
    }
  }
  return { name, bytes, kind, ext: STORED_EXT[kind], image };
}

export interface FormRules {
  /** Part names accepted besides `file` (the route's table). */
  fields: readonly TextField[];
  takes: boolean;
}
export const AVATAR_FORM: FormRules = { fields: ["tones", "consent_token", "framing", "gesture_amplitude", "ai_generated"], takes: true };
export const PHOTO_AVATAR_FORM: FormRules = {
  fields: ["avatar_id", "tones", "consent_token", "framing", "gesture_amplitude", "ai_generated"],
  takes: false,
};

/** Every part checked by name and type; anything the table does not name is a 400 naming it. */
export async function parseUploadForm(form: FormData, rules: FormRules, limits: AvatarUploadLimits, env: Envelope): Promise<ParsedUpload> {
  const fields: Partial<Record<TextField, string>> = {};
  const takes: UploadedTake[] = [];
  let file: File | null = null;
  const seen = new Set<string>();
  const takeParts: { name: string; tone: string; n: number; part: File }[] = [];
  for (const [name, value] of form.entries()) {
    if (seen.has(name)) throw bad("invalid_part", `The part ${show(name)} was sent twice; send each part once.`, env);
    seen.add(name);
    if (name === "file") {
      if (typeof value === "string") throw bad("invalid_part", "The part file must be a file (with a filename), not a text field.", env);
      file = value;
      continue;
    }
    if ((rules.fields as readonly string[]).includes(name)) {
      if (typeof value !== "string") throw bad("invalid_part", `The part ${show(name)} must be a text field, not a file.`, env);
      fields[name as TextField] = value;
      continue;
    }
    const take = rules.takes ? TAKE.exec(name) : null;
    if (take) {
      if (typeof value === "string") throw bad("invalid_part", `The part ${show(name)} must be a video file, not a text field.`, env);
      const n = take[2] === undefined ? 0 : Number(take[2]);
      if (take[2] !== undefined && n < 1) throw bad("invalid_part", `Take numbers start at 1 (${show(name)}).`, env);
      takeParts.push({ name, tone: take[1].toLowerCase(), n, part: value });
      continue;
    }
    const accepted = ["file", ...rules.fields, ...(rules.takes ? ["take__<tone>", "take__<tone>__<n>"] : [])].join(", ");
    throw bad("invalid_part", `Unknown part ${show(name)}; this route takes: ${accepted}.`, env);
  }
  if (!file) throw bad("missing_file", "The part file is required (a PNG or JPG image, or an MP4, MOV or WEBM video).", env);
  if (takeParts.length > limits.maxTakes)
    throw bad("invalid_part", `At most ${limits.maxTakes} take parts are accepted; ${takeParts.length} were sent.`, env);
  const main = await checkedFile(file, { ...IMAGE_EXTENSIONS, ...VIDEO_EXTENSIONS }, "The file", limits, env);
  const takeExt = Object.fromEntries(TAKE_EXTENSIONS.map((e) => [e, e === "mkv" ? "mkv" : VIDEO_EXTENSIONS[e]])) as Record<
    string,
    SniffedKind
  >;
  for (const t of takeParts) {
    const f = await checkedFile(t.part, takeExt, `The take ${t.name}`, limits, env);
    takes.push({ tone: t.tone, n: t.n, file: f });
  }
  return { file: main, fields, takes };
}

/** `ai_generated`: exactly `true 1 yes y on` (any case, trimmed) are yes; anything else is no. */
export function declaredAiGenerated(v: string | undefined): boolean {
  return ["true", "1", "yes", "y", "on"].includes((v ?? "").trim().toLowerCase());
}
