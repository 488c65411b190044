// Implements: Portal plane (`/auth/*`), Authentication: Plane B, and the one-host forwarding of box
// paths. The Web-standard core: no Bun or Node imports, so it runs on any runtime with fetch and
// Web Crypto. Migrations, mail transports, GPU drivers and WebSocket forwarding are the entry's job.
import type { Client } from "@libsql/client";
import { drizzle } from "drizzle-orm/libsql/web";
import { Hono } from "hono";
import { bodyLimit } from "hono/body-limit";
import { ApiError } from "../shared/errors/api-error.ts";
import { CredentialService, CREDENTIAL_TTL_SECONDS } from "./credential/service.ts";
import { credentialRoutes } from "./credential/routes.ts";
import { CredentialStore } from "./credential/store.ts";
import type { GpuDriver } from "./gpu/drivers/driver.ts";
import { NoGpuDriver } from "./gpu/drivers/none.ts";
import { gpuRoutes } from "./gpu/routes.ts";
import { DEFAULT_MAX_RUNTIME_SECONDS } from "./gpu/defaults.ts";
import { GpuService } from "./gpu/service.ts";
import { GpuLeaseStore } from "./gpu/lease-store.ts";
import { toErrorResponse } from "./http/errors.ts";
import { noStoreNoSniff } from "./http/no-store.ts";
import type { PortalHonoEnv } from "./http/types.ts";
import { IdTokenVerifier, type IdTokenOptions } from "./identity/id-token.ts";
import { requireIdentity } from "./identity/middleware.ts";
import { IdentityService } from "./identity/service.ts";
import { SessionStore } from "./identity/store.ts";
import { WebCryptoSigner, type Signer } from "./identity/tokens.ts";
import type { HotReads } from "./db/hot-reads.ts";
import { KeyService } from "./keys/service.ts";
import { keyRoutes } from "./keys/routes.ts";
import { KeyStore } from "./keys/store.ts";
import { KEY_LIMIT } from "./keys/schema.ts";
import { proxyRoutes } from "./proxy/routes.ts";
import type { Mailer } from "./sign-in/mailer.ts";
import { signInRoutes } from "./sign-in/routes.ts";
import { SignInService } from "./sign-in/service.ts";
import { SignInLinkStore } from "./sign-in/store.ts";
import { toneRoutes } from "./tones/routes.ts";
import { assetRoutes } from "./assets/routes.ts";
import { AssetService } from "./assets/service.ts";
import { AvatarOwnership, type OwnershipReads } from "./assets/store.ts";
import { archivedMediaOf, isServed, type AssetStore } from "./storage/asset-store.ts";
import { MemoryAssetStore } from "./storage/memory-store.ts";
import { signedAssetRoutes } from "./storage/routes.ts";
import { AssetUrlSigner } from "./storage/signed-path.ts";
import type { ArchivedMedia } from "./avatars/archived-media.ts";
import { avatarRoutes } from "./avatars/routes.ts";
import { AvatarLibraryService } from "./avatars/service.ts";
import { LibraryStore, type LibraryReads } from "./avatars/store.ts";
import { PublicationLedger, type LedgerConnection } from "./consent/ledger.ts";
import { consentRoutes } from "./consent/routes.ts";
import { ConsentService } from "./consent/service.ts";
import { UploadAttestationStore } from "./consent/store.ts";
import { TermsRegistry, type TermsText } from "./consent/terms.ts";
import { WithdrawalLog } from "./consent/withdrawal-log.ts";
import { VoiceKeyCipher } from "../shared/voice-keys/crypto.ts";
import { ProviderKeyChecker, type ProviderKeyCheckOptions } from "./voice-keys/key-check.ts";
import { voiceRoutes } from "./voice-keys/routes.ts";
import { VoiceService } from "./voice-keys/service.ts";
import { VoiceStore } from "./voice-keys/store.ts";
import { createPortraitGenerator, type PortraitOptions } from "./portraits/generators.ts";
import { portraitRoutes } from "./portraits/routes.ts";
import { PortraitService } from "./portraits/service.ts";
import { PortraitStore } from "./portraits/store.ts";
import { studioRoutes, type StudioOptions } from "./studio/routes.ts";
import { BoxDocumentReader } from "./openapi/box-document.ts";
import { openApiRoutes } from "./openapi/routes.ts";

export interface PortalAppOptions {
  /** libSQL client holding the key table and the portal's tables (migrated by the caller). */
  db: Client;
  /** Signing secret (session cookies); at least 32 characters. */
  secret: string;
  mailer: Mailer;
  /** Identity provider; without it only magic-link sign-in works. */
  oidc?: Omit<IdTokenOptions, "now"> | null;
  gpu?: GpuDriver;
  adminEmails?: readonly string[];
  ownerEmails?: readonly string[];
  gpuMaxRuntimeSeconds?: number;
  gpuHourlyCostUsd?: Readonly<Record<string, number>>;
  /** Forward box paths here; when absent, to the GPU driver's running box. */
  boxUrl?: string | null;
  /** Base of mailed links; when absent the request's own origin (set it behind a proxy). */
  publicUrl?: string | null;
  sessionTtlSeconds?: number;
  linkTtlSeconds?: number;
  linkRateLimit?: { max: number; windowSeconds: number };
  credentialTtlSeconds?: number;
  keyLimit?: number;
  /** Largest `/auth/*` request body in bytes (413 `body_too_large` beyond). */
  bodyLimitBytes?: number;
  resolveHostname?: (hostname: string) => Promise<string[]>;
  /** Used to reach the box. */
  fetch?: typeof fetch;
  /** Where voice-provider key checks go (default the public APIs), their timeout, their fetch. */
  voice?: ProviderKeyCheckOptions;
  /**
   * Portrait generation: the drawing generator's rasteriser (the entry passes sharp's; none here
   * means generating answers 503) or an OpenAI-compatible image provider.
   */
  portraits?: PortraitOptions;
  /** The live studio (`/studio`): its bundled script (built by the runtime entry) and the outbox folder to name on the sign-in page. */
  studio?: StudioOptions;
  /**
   * The publication-consent ledger: undefined keeps it in `db` (migrated with it); null means not
   * configured (publishing answers 503, withdrawing still works).
   */
  ledger?: LedgerConnection | null;
  /** Publication terms, oldest first; the last is current. Default the built-in ones. */
  publicationTerms?: readonly TermsText[];
  /** Archived portraits and clips, erased with the avatar; default the asset store's (`assetStore`). */
  archivedMedia?: ArchivedMedia;
  /**
   * Where archived portraits and clips live (PORTAL_STORAGE), given the signer of the portal's own
   * asset paths; default an in-memory store (a runtime without a filesystem, tests).
   */
  assetStore?: (urls: AssetUrlSigner) => AssetStore;
  /** Lifetime of the URLs `GET /auth/avatars/{id}/assets` hands out; default 900 s. */
  assetUrlTtlSeconds?: number;
  /** A faster answer to the asset route's ownership check (same database); default drizzle. */
  assetOwnership?: OwnershipReads | null;
  /** HMAC under `secret`; default Web Crypto. Entry points may pass a synchronous one. */
  signer?: Signer;
  /** Faster answers for the two hot reads (same database); default the drizzle stores. */
  reads?: HotReads | null;
  /** Faster library reads (same database) whose data version lets `GET /auth/avatars` bodies be kept; default libSQL, nothing kept. */
  libraryReads?: LibraryReads | null;
  /** Milliseconds since epoch. */
  now?: () => number;
  log?: (msg: string, err?: unknown) => void;
}

export const PORTAL_DEFAULTS = {
  sessionTtlSeconds: 7 * 24 * 3600,
  linkTtlSeconds: 15 * 60,
  linkRateLimit: { max: 5, windowSeconds: 15 * 60 },
  credentialTtlSeconds: CREDENTIAL_TTL_SECONDS,
  bodyLimitBytes: 64 * 1024,
} as const;

export interface PortalServices {
  identity: IdentityService;
  keys: KeyService;
  credentials: CredentialService;
  gpu: GpuService;
  signIn: SignInService;
  assets: AssetStore;
  avatars: AvatarLibraryService;
  consent: ConsentService;
  voice: VoiceService;
  portraits: PortraitService;
  /** The box that box paths are forwarded to right now, or null. */
  boxUrl: () => string | null;
}

export type PortalApp = Hono<PortalHonoEnv> & { services: PortalServices };

export function createPortalApp(options: PortalAppOptions): PortalApp {
  if (options.secret.length < 32) throw new Error("The portal secret must be at least 32 characters.");
  const now = options.now ?? Date.now;
  const log = options.log ?? ((msg: string, err?: unknown) => console.error(msg, err ?? ""));
  const db = drizzle(options.db);
  const driver = options.gpu ?? new NoGpuDriver();

  const signer = options.signer ?? new WebCryptoSigner(options.secret);
  const identity = new IdentityService({
    sessions: new SessionStore(db, options.reads ?? null),
    signer,
    idTokens: options.oidc ? new IdTokenVerifier({ ...options.oidc, now }) : null,
    sessionTtlSeconds: options.sessionTtlSeconds ?? PORTAL_DEFAULTS.sessionTtlSeconds,
    now,
  });
  const rate = options.linkRateLimit ?? PORTAL_DEFAULTS.linkRateLimit;
  const signIn = new SignInService({
    links: new SignInLinkStore(db),
    identity,
    mailer: options.mailer,
    linkTtlSeconds: options.linkTtlSeconds ?? PORTAL_DEFAULTS.linkTtlSeconds,
    maxLinksPerWindow: rate.max,
    windowSeconds: rate.windowSeconds,
    now,
    log,
  });
  const keys = new KeyService({ store: new KeyStore(db, options.db, options.reads ?? null), now, limit: options.keyLimit ?? KEY_LIMIT });
  const credentials = new CredentialService(
    new CredentialStore(db),
    now,
    options.credentialTtlSeconds ?? PORTAL_DEFAULTS.credentialTtlSeconds,
  );
  const gpu = new GpuService({
    driver,
    adminEmails: options.adminEmails ?? [],
    ownerEmails: options.ownerEmails ?? [],
    maxRuntimeSeconds: options.gpuMaxRuntimeSeconds ?? DEFAULT_MAX_RUNTIME_SECONDS,
    hourlyCostUsd: options.gpuHourlyCostUsd ?? {},
    now,
    leases: new GpuLeaseStore(options.db),
    resolveHostname: options.resolveHostname,
    log,
  });
  const voice = new VoiceService({
    store: new VoiceStore(db, options.db),
    cipher: VoiceKeyCipher.fromSecret(options.secret),
    checker: new ProviderKeyChecker(options.voice),
    now,
  });
  const nowSeconds = () => Math.floor(now() / 1000);
  const assetUrls = new AssetUrlSigner(signer, nowSeconds);
  const assets = (options.assetStore ?? ((urls: AssetUrlSigner) => new MemoryAssetStore(urls, nowSeconds)))(assetUrls);
  const assetService = new AssetService({
    ownership: new AvatarOwnership(db, options.assetOwnership ?? null),
    store: assets,
    ttlSeconds: options.assetUrlTtlSeconds,
    log,
  });
  const withdrawals = new WithdrawalLog(options.db);
  const ledger = new PublicationLedger({
    connection: options.ledger === undefined ? { client: options.db } : options.ledger,
    withdrawals,
    now: nowSeconds,
    log,
  });
  const avatars = new AvatarLibraryService({
    store: new LibraryStore(options.db, options.libraryReads ?? null),
    ledger,
    withdrawals,
    archivedMedia: options.archivedMedia ?? archivedMediaOf(assets),
    now: nowSeconds,
    log,
  });
  const consent = new ConsentService({
    uploads: new UploadAttestationStore(options.db),
    ledger,
    terms: new TermsRegistry(options.publicationTerms),
    ownsAvatar: (owner, avatarId) => avatars.owns(owner, avatarId),
    now: nowSeconds,
  });
  const portraits = new PortraitService({
    store: new PortraitStore(options.db),
    assets,
    generator: createPortraitGenerator(options.portraits),
    now: nowSeconds,
    log,
  });
  const staticBox = options.boxUrl ?? null;
  const boxUrl = () => staticBox ?? driver.boxUrl();

  const app = new Hono<PortalHonoEnv>();
  app.onError((err, c) => toErrorResponse(err, c, log));
  app.notFound(() => {
    throw new ApiError(404, "not_found", "No such route.");
  });
  app.use("/auth/*", noStoreNoSniff());
  const limit = options.bodyLimitBytes ?? PORTAL_DEFAULTS.bodyLimitBytes;
  app.use(
    "/auth/*",
    bodyLimit({
      maxSize: limit,
      onError: () => {
        throw new ApiError(413, "body_too_large", `Request bodies on /auth/* are limited to ${limit} bytes.`);
      },
    }),
  );
  // Signed asset paths are public (the signature is the credential): mounted before the identity gate.
  if (isServed(assets)) app.route("/", signedAssetRoutes(assets, assetUrls, nowSeconds));
  app.use("/auth/*", requireIdentity(identity, { publicUrl: options.publicUrl ?? null }));

  app.route("/", signInRoutes({ signIn, identity, publicUrl: options.publicUrl ?? null }));
  app.route("/", keyRoutes(keys));
  app.route("/", credentialRoutes(credentials));
  app.route("/", gpuRoutes(gpu));
  app.route("/", toneRoutes());
  app.route("/", assetRoutes(assetService, { publicUrl: options.publicUrl ?? null }));
  // Consent before the avatar routes: these end with a 404 for other writes under /auth/avatars/.
  app.route("/", consentRoutes(consent));
  app.route("/", avatarRoutes(avatars));
  app.route("/", voiceRoutes(voice));
  app.route("/", portraitRoutes(portraits));
  const boxDocument = new BoxDocumentReader({ boxUrl, fetch: options.fetch, now });
  app.route("/", studioRoutes({ ...options.studio, identity, keys, gpu, log, boxDocument: () => boxDocument.read() }));
  app.route("/", openApiRoutes({ boxUrl, fetch: options.fetch }));
  app.route("/", proxyRoutes({ boxUrl, fetch: options.fetch }));

  return Object.assign(app, { services: { identity, keys, credentials, gpu, signIn, voice, avatars, consent, assets, portraits, boxUrl } });
}
