// The one place the portal reads process.env. Validated with TypeBox, passed inward as typed options.
// Every variable is documented in docs/configuration.md.
import { Type, type Static } from "@sinclair/typebox";
import { Value } from "@sinclair/typebox/value";
import { DEFAULT_IMAGE_MODEL } from "./portraits/openai-generator.ts";
import { DEFAULT_CARTESIA_BASE_URL, DEFAULT_ELEVENLABS_BASE_URL } from "./voice-keys/providers.ts";
import { parseLogLevel } from "../shared/util/log.ts";

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(t: T) => Type.Union([t, Type.Null()]);

export const GpuRegionConfig = Type.Object({
  id: Type.String({ minLength: 1 }),
  label: Type.Optional(Type.String()),
  data_resident: Type.Optional(Type.Boolean()),
  can_serve: Type.Optional(Type.Boolean()),
  smoke_test: Type.Optional(Type.Boolean()),
  types: Type.Array(Type.String({ minLength: 1 })),
  owner_types: Type.Optional(Type.Array(Type.String({ minLength: 1 }))),
});

export const PortalEnv = Type.Object({
  host: Type.String({ minLength: 1 }),
  port: Type.Integer({ minimum: 0, maximum: 65535 }),
  dbUrl: Type.String({ minLength: 1 }),
  dbAuthToken: Nullable(Type.String()),
  dataDir: Type.String({ minLength: 1 }),
  /** PORTAL_LOG_LEVEL: debug, info (default), warn or error: the lowest level of the JSON log lines on stderr. */
  logLevel: Type.Union([Type.Literal("debug"), Type.Literal("info"), Type.Literal("warn"), Type.Literal("error")]),
  secret: Nullable(Type.String({ minLength: 32 })),
  publicUrl: Nullable(Type.String({ pattern: "^https?://" })),
  oidc: Nullable(Type.Object({ issuer: Type.String(), audience: Type.String(), jwksUrl: Type.String({ pattern: "^https?://" }) })),
  adminEmails: Type.Array(Type.String()),
  ownerEmails: Type.Array(Type.String()),
  boxUrl: Nullable(Type.String({ pattern: "^https?://" })),
  gpuDriver: Type.Union([Type.Literal("local"), Type.Literal("ec2"), Type.Literal("none")]),
  gpuAutolaunch: Type.Boolean(),
  gpuMaxRuntimeSeconds: Type.Integer({ minimum: 0 }),
  gpuRegions: Type.Array(GpuRegionConfig),
  gpuHourlyCostUsd: Type.Record(Type.String(), Type.Number({ minimum: 0 })),
  ec2: Type.Object({
    imageIds: Type.Record(Type.String(), Type.String()),
    deploymentTag: Type.String({ minLength: 1 }),
    userDataFile: Nullable(Type.String()),
    subnetIds: Type.Record(Type.String(), Type.String()),
    securityGroupIds: Type.Record(Type.String(), Type.Array(Type.String())),
    keyName: Nullable(Type.String()),
    instanceProfile: Nullable(Type.String()),
    ephemeral: Type.Boolean(),
    endpoint: Nullable(Type.String()),
  }),
  boxCommand: Type.Array(Type.String(), { minItems: 1 }),
  boxDataDir: Type.String({ minLength: 1 }),
  mailOutbox: Nullable(Type.String()),
  smtpUrl: Nullable(Type.String({ pattern: "^smtps?://" })),
  mailFrom: Type.String(),
  sessionTtlSeconds: Type.Integer({ minimum: 60 }),
  credentialTtlSeconds: Type.Integer({ minimum: 30 }),
  /** PORTAL_STORAGE: where archived portraits and clips live (portal/storage/). */
  storage: Type.Union([
    Type.Object({ kind: Type.Literal("file") }),
    Type.Object({
      kind: Type.Literal("s3"),
      bucket: Type.String({ minLength: 1 }),
      region: Nullable(Type.String({ minLength: 1 })),
      endpoint: Nullable(Type.String({ pattern: "^https?://" })),
    }),
  ]),
  /** The publication-consent ledger: null = the portal's own database; `off` = not configured. */
  ledgerUrl: Nullable(Type.String({ pattern: "^(off$|:memory:$|file:|libsql://|https?://|wss?://)" })),
  ledgerAuthToken: Nullable(Type.String()),
  elevenlabsBaseUrl: Type.String({ pattern: "^https?://" }),
  cartesiaBaseUrl: Type.String({ pattern: "^https?://" }),
  /** PORTAL_IMAGE_*: the OpenAI-compatible image provider for portraits; null = the embedded drawing generator. */
  imageProvider: Nullable(
    Type.Object({
      baseUrl: Type.String({ pattern: "^https?://" }),
      apiKey: Nullable(Type.String({ minLength: 1 })),
      model: Type.String({ minLength: 1 }),
    }),
  ),
});
export type PortalEnv = Static<typeof PortalEnv> & {
  /** The environment a local box inherits (PATH, HOME, BOX_* the operator set ...). */
  childEnv: Readonly<Record<string, string | undefined>>;
};

type RawEnv = Record<string, string | undefined>;

const list = (v: string | undefined) =>
  (v ?? "")
    .split(",")
    .map((s) => s.trim().toLowerCase())
    .filter(Boolean);
const opt = (v: string | undefined) => (v === undefined || v.trim() === "" ? null : v.trim());
const truthy = (v: string | undefined) => ["1", "true", "yes", "on"].includes((v ?? "").trim().toLowerCase());

function int(name: string, v: string | undefined, fallback: number): number {
  if (v === undefined || v.trim() === "") return fallback;
  const n = Number(v);
  if (!Number.isInteger(n)) throw new Error(`${name} must be an integer, got ${JSON.stringify(v)}`);
  return n;
}

function json<T>(name: string, v: string | undefined, fallback: T): T {
  if (v === undefined || v.trim() === "") return fallback;
  try {
    return JSON.parse(v) as T;
  } catch {
    throw new Error(`${name} must be JSON`);
  }
}

export function readPortalEnv(env: RawEnv = process.env): PortalEnv {
  const issuer = opt(env.PORTAL_OIDC_ISSUER);
  const audience = opt(env.PORTAL_OIDC_AUDIENCE);
  const jwksUrl = opt(env.PORTAL_OIDC_JWKS_URL);
  const oidcParts = [issuer, audience, jwksUrl].filter((v) => v !== null).length;
  if (oidcParts !== 0 && oidcParts !== 3) {
    throw new Error("PORTAL_OIDC_ISSUER, PORTAL_OIDC_AUDIENCE and PORTAL_OIDC_JWKS_URL go together: set all three or none");
  }
  const gpuDriver = (opt(env.PORTAL_GPU_DRIVER) ?? "local").toLowerCase();
  const boxUrl = opt(env.PORTAL_BOX_URL)?.replace(/\/+$/, "") ?? null;
  const value = {
    host: opt(env.PORTAL_HOST) ?? "127.0.0.1",
    port: int("PORTAL_PORT", env.PORTAL_PORT, 8787),
    dbUrl: opt(env.PORTAL_DB_URL) ?? "file:data/portal.db",
    dbAuthToken: opt(env.PORTAL_DB_AUTH_TOKEN),
    dataDir: opt(env.PORTAL_DATA_DIR) ?? "data",
    secret: opt(env.PORTAL_SECRET),
    publicUrl: opt(env.PORTAL_PUBLIC_URL)?.replace(/\/+$/, "") ?? null,
    oidc: oidcParts === 3 ? { issuer: issuer!, audience: audience!, jwksUrl: jwksUrl! } : null,
    adminEmails: list(env.PORTAL_ADMIN_EMAILS),
    ownerEmails: list(env.PORTAL_OWNER_EMAILS),
    boxUrl,
    gpuDriver,
    // The embedded default (`npm start`): the local driver brings its box up at start, unless the
    // portal fronts an external box (PORTAL_BOX_URL) or PORTAL_GPU_AUTOLAUNCH=0.
    gpuAutolaunch: opt(env.PORTAL_GPU_AUTOLAUNCH) === null ? gpuDriver === "local" && boxUrl === null : truthy(env.PORTAL_GPU_AUTOLAUNCH),
    // A local box costs nothing, so it has no runtime budget unless one is set.
    gpuMaxRuntimeSeconds: int("PORTAL_GPU_MAX_RUNTIME_SECONDS", env.PORTAL_GPU_MAX_RUNTIME_SECONDS, gpuDriver === "local" ? 0 : 7200),
    gpuRegions: json("PORTAL_GPU_REGIONS", env.PORTAL_GPU_REGIONS, []),
    gpuHourlyCostUsd: json("PORTAL_GPU_HOURLY_COST_USD", env.PORTAL_GPU_HOURLY_COST_USD, DEFAULT_HOURLY_COST_USD),
    ec2: {
      imageIds: json("PORTAL_EC2_IMAGE_IDS", env.PORTAL_EC2_IMAGE_IDS, {}),
      deploymentTag: opt(env.PORTAL_EC2_DEPLOYMENT_TAG) ?? "default",
      userDataFile: opt(env.PORTAL_EC2_USER_DATA_FILE),
      subnetIds: json("PORTAL_EC2_SUBNET_IDS", env.PORTAL_EC2_SUBNET_IDS, {}),
      securityGroupIds: json("PORTAL_EC2_SECURITY_GROUP_IDS", env.PORTAL_EC2_SECURITY_GROUP_IDS, {}),
      keyName: opt(env.PORTAL_EC2_KEY_NAME),
      instanceProfile: opt(env.PORTAL_EC2_INSTANCE_PROFILE),
      ephemeral: truthy(env.PORTAL_EC2_EPHEMERAL),
      endpoint: opt(env.PORTAL_EC2_ENDPOINT),
    },
    boxCommand: (opt(env.PORTAL_BOX_COMMAND) ?? "node_modules/.bin/bun box/main.ts").split(/\s+/),
    boxDataDir: opt(env.PORTAL_BOX_DATA_DIR) ?? "data/box",
    mailOutbox: opt(env.PORTAL_MAIL_OUTBOX),
    logLevel: parseLogLevel(env.PORTAL_LOG_LEVEL, "PORTAL_LOG_LEVEL"),
    smtpUrl: opt(env.PORTAL_SMTP_URL),
    mailFrom: opt(env.PORTAL_MAIL_FROM) ?? "Avatar portal <no-reply@localhost>",
    sessionTtlSeconds: int("PORTAL_SESSION_TTL_SECONDS", env.PORTAL_SESSION_TTL_SECONDS, 7 * 24 * 3600),
    credentialTtlSeconds: int("PORTAL_CREDENTIAL_TTL_SECONDS", env.PORTAL_CREDENTIAL_TTL_SECONDS, 3600),
    storage: storageConfig(env),
    ledgerUrl: opt(env.PORTAL_LEDGER_URL)?.toLowerCase() === "off" ? "off" : opt(env.PORTAL_LEDGER_URL),
    ledgerAuthToken: opt(env.PORTAL_LEDGER_AUTH_TOKEN),
    // Where voice-provider key checks go (a local fake in tests).
    elevenlabsBaseUrl: (opt(env.PORTAL_ELEVENLABS_BASE_URL) ?? DEFAULT_ELEVENLABS_BASE_URL).replace(/\/+$/, ""),
    cartesiaBaseUrl: (opt(env.PORTAL_CARTESIA_BASE_URL) ?? DEFAULT_CARTESIA_BASE_URL).replace(/\/+$/, ""),
    imageProvider: imageProviderConfig(env),
  };
  if (!Value.Check(PortalEnv, value)) {
    const first = [...Value.Errors(PortalEnv, value)][0];
    throw new Error(`invalid portal environment: ${first?.path} ${first?.message}`);
  }
  return { ...value, childEnv: { ...env } };
}

/** Approximate on-demand list prices (USD/hour, us-east-1) for the record's `hourly_cost_usd`; override with PORTAL_GPU_HOURLY_COST_USD. */
export const DEFAULT_HOURLY_COST_USD: Record<string, number> = {
  "g4dn.xlarge": 0.526,
  "g5.xlarge": 1.006,
  "g6.xlarge": 0.805,
  "g6e.xlarge": 1.861,
  local: 0,
};

/** PORTAL_STORAGE `file` (default: under PORTAL_DATA_DIR/assets) or `s3` (PORTAL_S3_BUCKET required). */
function storageConfig(env: RawEnv): PortalEnv["storage"] {
  const kind = (opt(env.PORTAL_STORAGE) ?? "file").toLowerCase();
  if (kind === "file") return { kind: "file" };
  if (kind !== "s3") throw new Error(`PORTAL_STORAGE must be file or s3, not ${JSON.stringify(env.PORTAL_STORAGE)}`);
  const bucket = opt(env.PORTAL_S3_BUCKET);
  if (!bucket) throw new Error("PORTAL_STORAGE=s3 needs PORTAL_S3_BUCKET (and PORTAL_S3_REGION, PORTAL_S3_ENDPOINT as the store needs)");
  return { kind: "s3", bucket, region: opt(env.PORTAL_S3_REGION), endpoint: opt(env.PORTAL_S3_ENDPOINT)?.replace(/\/+$/, "") ?? null };
}

/** PORTAL_IMAGE_BASE_URL (+ PORTAL_IMAGE_API_KEY, PORTAL_IMAGE_MODEL): unset = the embedded drawing generator. */
function imageProviderConfig(env: RawEnv): PortalEnv["imageProvider"] {
  const baseUrl = opt(env.PORTAL_IMAGE_BASE_URL);
  const apiKey = opt(env.PORTAL_IMAGE_API_KEY);
  const model = opt(env.PORTAL_IMAGE_MODEL);
  if (baseUrl === null) {
    if (apiKey !== null || model !== null) {
      throw new Error(
        "PORTAL_IMAGE_API_KEY and PORTAL_IMAGE_MODEL need PORTAL_IMAGE_BASE_URL (e.g. https://api.openai.com); without it portraits are drawn by the embedded generator",
      );
    }
    return null;
  }
  let url: URL | null = null;
  try {
    url = new URL(baseUrl);
  } catch {
    url = null;
  }
  if (!url || (url.protocol !== "http:" && url.protocol !== "https:") || !/^https?:\/\//.test(baseUrl)) {
    throw new Error(
      `PORTAL_IMAGE_BASE_URL must be an http(s) URL such as https://api.openai.com, not ${JSON.stringify(baseUrl.slice(0, 80))}`,
    );
  }
  return { baseUrl: baseUrl.replace(/\/+$/, ""), apiKey, model: model ?? DEFAULT_IMAGE_MODEL };
}
