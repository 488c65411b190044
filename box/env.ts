// The one place the box reads process.env. Validated with TypeBox, passed inward as typed options.
import { Type, type Static } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { DEFAULT_VISION_MODELS } from "./llm/vision-models.ts";
import { parseLogLevel } from "../shared/util/log.ts";

const list = (v: string | undefined) =>
  (v ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

export const BoxEnv = Type.Object({
  host: Type.String({ minLength: 1 }),
  port: Type.Integer({ minimum: 0, maximum: 65535 }),
  dataDir: Type.String({ minLength: 1 }),
  apiKeys: Type.Array(Type.String({ minLength: 1 })),
  keyTableUrl: Type.Union([Type.String({ minLength: 1 }), Type.Null()]),
  publicHostname: Type.Union([Type.String({ minLength: 1 }), Type.Null()]),
  allowedOrigins: Type.Array(Type.String()),
  /** JSON list of model declarations fed to the catalogue when no provider lists them. */
  models: Type.Union([Type.String(), Type.Null()]),
  /** Lets non-`au` models be selectable (explicit opt-in to offshore processing). */
  allowOffshoreModels: Type.Boolean(),
  /** Maximum runtime of this box in seconds (GPU self-termination); null when not set. */
  maxRuntimeSeconds: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()]),
  /** The deployment's IANA time zone (built-in `current_time` tool). */
  timeZone: Type.String(),
  /** Side of the square live video in pixels (even). */
  videoSize: Type.Integer({ minimum: 64, maximum: 1920, multipleOf: 2 }),
  /** A renderer model on the volume that replaces the built-in face warp (box/render/README.md). */
  renderModelPath: Type.Union([Type.String({ minLength: 1 }), Type.Null()]),
  /** Loopback-only ICE (tests, local use); off for deployments with public hosts and STUN/TURN. */
  iceLoopbackOnly: Type.Boolean(),
  /** Socket sessions: idle window, default maximum length (null: none), credential check period. */
  sockets: Type.Object({
    idleSeconds: Type.Integer({ minimum: 1 }),
    maxSeconds: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()]),
    checkEveryMs: Type.Integer({ minimum: 50 }),
  }),
  /** Speech recognition for the microphone socket. */
  asr: Type.Object({
    engine: Type.Union([Type.Literal("pocketsphinx"), Type.Literal("deepgram"), Type.Literal("none"), Type.Literal("auto")]),
    deepgram: Type.Optional(
      Type.Object({
        url: Type.Optional(Type.String()),
        apiKey: Type.Optional(Type.String()),
        auth: Type.Optional(Type.Union([Type.Literal("token"), Type.Literal("bearer")])),
      }),
    ),
    grammar: Type.Optional(Type.Array(Type.String())),
  }),
  /** Retention of reply WAVs made by POST /api/chat without a live session (null: no limit). */
  replyAudio: Type.Object({
    maxAgeSeconds: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()]),
    maxBytesPerSubject: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()]),
  }),
  /** BOX_SPECULATIVE_REPLIES: voice turns start the reply during the end-of-turn wait (default on). */
  speculativeReplies: Type.Boolean(),
  /** BOX_BARGE_PAUSE: barge-in in two steps, the avatar paused at the first voice (default on; off: today's one step). */
  bargePause: Type.Boolean(),
  /** BOX_LOG_LEVEL: debug, info (default), warn or error: the lowest level of the JSON log lines on stderr. */
  logLevel: Type.Union([Type.Literal("debug"), Type.Literal("info"), Type.Literal("warn"), Type.Literal("error")]),
  /** BOX_PERCEPTION: the avatar sees the client's camera or screen track (default on; off: such a track is answered inactive). */
  perception: Type.Boolean(),
  /** BOX_VISION_MODELS: model ids (`*` wildcards) that are sent the person's picture; docs/api-notes.md "Perception". */
  visionModels: Type.Array(Type.String()),
  /** Longest pause_conversation (the spec's 90 s; lowered only by tests). */
  pauseMaxSeconds: Type.Integer({ minimum: 1, maximum: 90 }),
  /** Readiness: first re-check of a down model provider or voice engine (doubles, capped at 30 s). */
  readiness: Type.Object({ retryMs: Type.Integer({ minimum: 1 }) }),
  /** Language-model providers; one is on when its base URL (or region) is set. */
  llm: Type.Object({
    openai: Type.Optional(Type.Object({ baseUrl: Type.String(), apiKey: Type.Optional(Type.String()) })),
    anthropic: Type.Optional(Type.Object({ baseUrl: Type.String(), apiKey: Type.Optional(Type.String()) })),
    bedrock: Type.Optional(Type.Object({ region: Type.String(), endpoint: Type.Optional(Type.String()) })),
  }),
  moderation: Type.Object({ words: Type.Optional(Type.Array(Type.String())), patterns: Type.Optional(Type.Array(Type.String())) }),
  /** Built-in tools switched on for this deployment, and the public APIs they call. */
  /** BOX_PHOTO_AVATAR: photo avatar creation (off: POST /v1/photo_avatar.create is 501, uploads get the base face only). */
  photoAvatar: Type.Boolean(),
  /** BOX_AVATAR_CLIPS: idle clip generation per tone (off: clip generation is 501 avatar_clips_unavailable). */
  avatarClips: Type.Boolean(),
  /** BOX_ASSET_STORE, BOX_ASSET_DIR, BOX_S3_*: where finished portraits and clips are archived (box/avatars/archive/). */
  assetArchive: Type.Union([
    Type.Object({ kind: Type.Literal("off") }),
    Type.Object({ kind: Type.Literal("file"), dir: Type.String({ minLength: 1 }) }),
    Type.Object({
      kind: Type.Literal("s3"),
      bucket: Type.String({ minLength: 1 }),
      region: Type.Union([Type.String({ minLength: 1 }), Type.Null()]),
      endpoint: Type.Union([Type.String({ pattern: "^https?://" }), Type.Null()]),
    }),
  ]),
  /** Voice engines: the one the box boots on (BOX_TTS) and the providers it can reach. */
  tts: Type.Object({
    engine: Type.Union([Type.Literal("espeak"), Type.Literal("chatterbox"), Type.Literal("elevenlabs"), Type.Literal("cartesia")]),
    chatterbox: Type.Union([
      Type.Object({ url: Type.String({ pattern: "^https?://" }), apiKey: Type.Optional(Type.String()) }),
      Type.Null(),
    ]),
    elevenlabs: Type.Object({
      baseUrl: Type.String({ pattern: "^https?://" }),
      apiKey: Type.Union([Type.String({ minLength: 1 }), Type.Null()]),
    }),
    cartesia: Type.Object({
      baseUrl: Type.String({ pattern: "^https?://" }),
      apiKey: Type.Union([Type.String({ minLength: 1 }), Type.Null()]),
    }),
    /** BOX_VOICE_KEY_MATERIAL: the 32 bytes (hex) that open keys people saved on the portal. */
    keyMaterial: Type.Union([Type.String({ pattern: "^[0-9a-f]{64}$" }), Type.Null()]),
  }),
  builtinTools: Type.Object({
    enabled: Type.Array(Type.String()),
    weatherBaseUrl: Type.Optional(Type.String()),
    geocodeBaseUrl: Type.Optional(Type.String()),
    wikipediaBaseUrl: Type.Optional(Type.String()),
  }),
});
export type BoxEnv = Static<typeof BoxEnv>;

function int(v: string | undefined, fallback: number | null): number | null {
  if (v === undefined || v.trim() === "") return fallback;
  const n = Number(v);
  if (!Number.isInteger(n)) throw new Error(`not an integer: ${v}`);
  return n;
}

/** A non-negative number of megabytes (2^20 bytes; fractions allowed) as bytes; 0 means no cap. */
function megabytes(v: string | undefined, fallback: number): number | null {
  const n = v === undefined || v.trim() === "" ? fallback : Number(v);
  if (!Number.isFinite(n) || n < 0) throw new Error(`not a size in MB: ${v}`);
  return n === 0 ? null : Math.max(1, Math.round(n * 1024 * 1024));
}

function jsonList(v: string, name: string): string[] {
  const parsed = JSON.parse(v);
  if (!Array.isArray(parsed) || !parsed.every((x) => typeof x === "string")) throw new Error(`${name} must be a JSON list of strings`);
  return parsed;
}

/** An `on` (default) / `off` switch; a value that is neither is refused rather than guessed. */
function onOff(v: string | undefined, name: string): boolean {
  const t = (v ?? "").trim().toLowerCase();
  if (t === "" || t === "on") return true;
  if (t === "off") return false;
  throw new Error(`${name} must be on or off, not ${JSON.stringify(v)}`);
}

/** A switch, on by default: `1`/`on`/`true`/`yes` or `0`/`off`/`false`/`no`; anything else is refused. */
function onOffish(v: string | undefined, name: string): boolean {
  const t = (v ?? "").trim().toLowerCase();
  if (["", "1", "on", "true", "yes"].includes(t)) return true;
  if (["0", "off", "false", "no"].includes(t)) return false;
  throw new Error(`${name} must be on or off (1/0, true/false), not ${JSON.stringify(v)}`);
}

const truthy = (v: string | undefined) => ["1", "true", "yes", "on"].includes((v ?? "").toLowerCase());

export function readBoxEnv(env: Record<string, string | undefined> = process.env): BoxEnv {
  const value = {
    host: env.BOX_HOST || "127.0.0.1",
    port: int(env.BOX_PORT, 8080),
    dataDir: env.BOX_DATA_DIR || "data/box",
    apiKeys: list(env.BOX_API_KEYS),
    keyTableUrl: env.BOX_KEY_TABLE_URL || null,
    publicHostname: env.BOX_PUBLIC_HOSTNAME || null,
    allowedOrigins: list(env.BOX_ALLOWED_ORIGINS),
    models: env.BOX_MODELS || null,
    allowOffshoreModels: truthy(env.BOX_ALLOW_OFFSHORE_MODELS),
    maxRuntimeSeconds: int(env.BOX_MAX_RUNTIME_SECONDS, null),
    timeZone: env.BOX_TIME_ZONE || Intl.DateTimeFormat().resolvedOptions().timeZone || "UTC",
    videoSize: int(env.BOX_VIDEO_SIZE, 512),
    renderModelPath: env.BOX_RENDER_MODEL || null,
    iceLoopbackOnly: env.BOX_ICE_LOOPBACK_ONLY === undefined ? !env.BOX_PUBLIC_HOSTNAME : truthy(env.BOX_ICE_LOOPBACK_ONLY),
    sockets: {
      idleSeconds: int(env.BOX_IDLE_SECONDS, 300),
      maxSeconds: int(env.BOX_MAX_SESSION_SECONDS, 3600) || null,
      checkEveryMs: int(env.BOX_SOCKET_CHECK_MS, 1000),
    },
    asr: {
      engine: (env.BOX_ASR || "auto") as "auto",
      // Deepgram, or a self-hosted recogniser speaking its `/v1/listen` protocol (BOX_DEEPGRAM_URL alone).
      ...(env.BOX_DEEPGRAM_API_KEY || env.BOX_DEEPGRAM_URL
        ? {
            deepgram: {
              url: env.BOX_DEEPGRAM_URL || undefined,
              apiKey: env.BOX_DEEPGRAM_API_KEY || undefined,
              auth: (env.BOX_DEEPGRAM_AUTH || "token").toLowerCase() as "token",
            },
          }
        : {}),
      ...(env.BOX_ASR_GRAMMAR ? { grammar: jsonList(env.BOX_ASR_GRAMMAR, "BOX_ASR_GRAMMAR") } : {}),
    },
    replyAudio: {
      maxAgeSeconds: int(env.BOX_REPLY_AUDIO_MAX_AGE_SECONDS, 86_400) || null,
      maxBytesPerSubject: megabytes(env.BOX_REPLY_AUDIO_MAX_MB_PER_SUBJECT, 50),
    },
    speculativeReplies: onOffish(env.BOX_SPECULATIVE_REPLIES, "BOX_SPECULATIVE_REPLIES"),
    bargePause: onOffish(env.BOX_BARGE_PAUSE, "BOX_BARGE_PAUSE"),
    logLevel: parseLogLevel(env.BOX_LOG_LEVEL, "BOX_LOG_LEVEL"),
    perception: onOff(env.BOX_PERCEPTION, "BOX_PERCEPTION"),
    visionModels: env.BOX_VISION_MODELS === undefined ? [...DEFAULT_VISION_MODELS] : list(env.BOX_VISION_MODELS),
    pauseMaxSeconds: int(env.BOX_PAUSE_MAX_SECONDS, 90),
    readiness: { retryMs: int(env.BOX_READINESS_RETRY_MS, 2000) },
    llm: {
      ...(env.BOX_OPENAI_BASE_URL ? { openai: { baseUrl: env.BOX_OPENAI_BASE_URL, apiKey: env.BOX_OPENAI_API_KEY } } : {}),
      ...(env.BOX_ANTHROPIC_BASE_URL ? { anthropic: { baseUrl: env.BOX_ANTHROPIC_BASE_URL, apiKey: env.BOX_ANTHROPIC_API_KEY } } : {}),
      ...(env.BOX_BEDROCK_REGION ? { bedrock: { region: env.BOX_BEDROCK_REGION, endpoint: env.BOX_BEDROCK_ENDPOINT || undefined } } : {}),
    },
    moderation: {
      ...(env.BOX_MODERATION_WORDS !== undefined ? { words: list(env.BOX_MODERATION_WORDS) } : {}),
      ...(env.BOX_MODERATION_PATTERNS ? { patterns: jsonList(env.BOX_MODERATION_PATTERNS, "BOX_MODERATION_PATTERNS") } : {}),
    },
    photoAvatar: onOff(env.BOX_PHOTO_AVATAR, "BOX_PHOTO_AVATAR"),
    avatarClips: onOff(env.BOX_AVATAR_CLIPS, "BOX_AVATAR_CLIPS"),
    assetArchive: assetArchive(env),
    tts: ttsEnv(env),
    builtinTools: {
      enabled: env.BOX_BUILTIN_TOOLS === undefined ? ["calculate", "current_time"] : list(env.BOX_BUILTIN_TOOLS),
      weatherBaseUrl: env.BOX_WEATHER_BASE_URL || undefined,
      geocodeBaseUrl: env.BOX_GEOCODE_BASE_URL || undefined,
      wikipediaBaseUrl: env.BOX_WIKIPEDIA_BASE_URL || undefined,
    },
  };
  if (!Value.Check(BoxEnv, value)) {
    const first = [...Value.Errors(BoxEnv, value)][0];
    throw new Error(`invalid box environment: ${first?.path} ${first?.message}`);
  }
  return value;
}

/**
 * The archive of finished portraits and clips: BOX_ASSET_STORE `s3` (BOX_S3_BUCKET, BOX_S3_REGION,
 * BOX_S3_ENDPOINT; credentials from the box's own AWS chain), `file` (BOX_ASSET_DIR, a folder the
 * portal's `file` store reads), or `off`. Unset: `file` when BOX_ASSET_DIR is set, else off.
 */
function assetArchive(env: Record<string, string | undefined>): BoxEnv["assetArchive"] {
  const store = (env.BOX_ASSET_STORE ?? "").trim().toLowerCase();
  const dir = (env.BOX_ASSET_DIR ?? "").trim();
  if (store === "off" || (store === "" && !dir)) return { kind: "off" };
  if (store === "" || store === "file") {
    if (!dir) throw new Error("BOX_ASSET_STORE=file needs BOX_ASSET_DIR");
    return { kind: "file", dir };
  }
  if (store !== "s3") throw new Error(`BOX_ASSET_STORE must be file, s3 or off, not ${JSON.stringify(env.BOX_ASSET_STORE)}`);
  const bucket = (env.BOX_S3_BUCKET ?? "").trim();
  if (!bucket) throw new Error("BOX_ASSET_STORE=s3 needs BOX_S3_BUCKET");
  return {
    kind: "s3",
    bucket,
    region: env.BOX_S3_REGION?.trim() || null,
    endpoint: env.BOX_S3_ENDPOINT?.trim().replace(/\/+$/, "") || null,
  };
}

const TTS_ENGINES = ["espeak", "chatterbox", "elevenlabs", "cartesia"] as const;
const trimUrl = (v: string | undefined, fallback: string) => (v?.trim() || fallback).replace(/\/+$/, "");

function ttsEnv(env: Record<string, string | undefined>): BoxEnv["tts"] {
  const engine = (env.BOX_TTS ?? "").trim().toLowerCase() || "espeak";
  if (!(TTS_ENGINES as readonly string[]).includes(engine))
    throw new Error(`BOX_TTS must be one of ${TTS_ENGINES.join(", ")}, not ${JSON.stringify(env.BOX_TTS)}`);
  const chatterboxUrl = env.BOX_CHATTERBOX_URL?.trim();
  const tts = {
    engine: engine as BoxEnv["tts"]["engine"],
    chatterbox: chatterboxUrl
      ? { url: chatterboxUrl.replace(/\/+$/, ""), ...(env.BOX_CHATTERBOX_API_KEY ? { apiKey: env.BOX_CHATTERBOX_API_KEY } : {}) }
      : null,
    elevenlabs: {
      baseUrl: trimUrl(env.BOX_ELEVENLABS_BASE_URL, "https://api.elevenlabs.io"),
      apiKey: env.BOX_ELEVENLABS_API_KEY?.trim() || null,
    },
    cartesia: { baseUrl: trimUrl(env.BOX_CARTESIA_BASE_URL, "https://api.cartesia.ai"), apiKey: env.BOX_CARTESIA_API_KEY?.trim() || null },
    keyMaterial: env.BOX_VOICE_KEY_MATERIAL?.trim().toLowerCase() || null,
  };
  const needs: Record<string, [boolean, string]> = {
    chatterbox: [tts.chatterbox !== null, "BOX_CHATTERBOX_URL"],
    elevenlabs: [tts.elevenlabs.apiKey !== null, "BOX_ELEVENLABS_API_KEY"],
    cartesia: [tts.cartesia.apiKey !== null, "BOX_CARTESIA_API_KEY"],
  };
  const need = needs[engine];
  if (need && !need[0]) throw new Error(`BOX_TTS=${engine} needs ${need[1]}`);
  return tts;
}

/** Fact: an open box (no keys, no key table) must not face the public internet. */
export function startupRefusal(env: BoxEnv): string | null {
  if (env.publicHostname && env.apiKeys.length === 0 && !env.keyTableUrl) {
    return `refusing to start: BOX_PUBLIC_HOSTNAME is set (${env.publicHostname}) but neither BOX_API_KEYS nor BOX_KEY_TABLE_URL is configured, so every route would be open to the internet`;
  }
  return null;
}
