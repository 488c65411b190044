// The one place the box reads process.env. Validated with TypeBox, passed inward as typed options.
import { Type, type Static } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";

const list = (v: string | undefined) => (v ?? "").split(",").map((s) => s.trim()).filter(Boolean);

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
});
export type BoxEnv = Static<typeof BoxEnv>;

function int(v: string | undefined, fallback: number | null): number | null {
  if (v === undefined || v.trim() === "") return fallback;
  const n = Number(v);
  if (!Number.isInteger(n)) throw new Error(`not an integer: ${v}`);
  return n;
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
  };
  if (!Value.Check(BoxEnv, value)) {
    const first = [...Value.Errors(BoxEnv, value)][0];
    throw new Error(`invalid box environment: ${first?.path} ${first?.message}`);
  }
  return value;
}

/** Fact: an open box (no keys, no key table) must not face the public internet. */
export function startupRefusal(env: BoxEnv): string | null {
  if (env.publicHostname && env.apiKeys.length === 0 && !env.keyTableUrl) {
    return `refusing to start: BOX_PUBLIC_HOSTNAME is set (${env.publicHostname}) but neither BOX_API_KEYS nor BOX_KEY_TABLE_URL is configured, so every route would be open to the internet`;
  }
  return null;
}
