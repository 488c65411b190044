// Composition root: builds every component from the typed environment and returns the app.
import { mkdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import type { BoxEnv } from "./env.ts";
import { createBoxApp } from "./app.ts";
import { openKeyTable, type KeyTable } from "./auth/key-table.ts";
import { Authenticator } from "./auth/principal.ts";
import { openBoxDb } from "./db/client.ts";
import { buildCatalogue, type CatalogueRow } from "./catalogue/catalogue.ts";
import { parseModelList } from "./catalogue/config.ts";
import { ConversationService } from "./conversations/service.ts";
import { ConversationStore } from "./conversations/store.ts";
import { TranscriptFiles } from "./conversations/transcripts.ts";
import { CursorCodec } from "./conversations/cursor.ts";
import { conversationRoutes } from "./conversations/routes.ts";
import { SettingsService } from "./settings/service.ts";
import type { TtsProviderInfo } from "./settings/schema.ts";
import { SettingsStore } from "./settings/store.ts";
import { settingsRoutes } from "./settings/routes.ts";
import { tokenRoutes } from "./tokens/routes.ts";
import { readinessRoutes } from "./readiness/routes.ts";
import type { ReadinessSources } from "./readiness/service.ts";
import { StatsService } from "./system/stats.ts";
import { systemRoutes } from "./system/routes.ts";
import type { LiveControl } from "./system/live.ts";
import { openApiDocument } from "./http/openapi.ts";
import type { RouteDef } from "./http/route.ts";
import { EspeakEngine } from "./voice/espeak-engine.ts";

/** A secret kept on the volume (cursor signing); made once. */
function volumeSecret(dataDir: string): Buffer {
  const path = join(dataDir, "box-secret");
  if (existsSync(path)) return Buffer.from(readFileSync(path, "utf8").trim(), "hex");
  const secret = randomBytes(32);
  writeFileSync(path, secret.toString("hex"), { mode: 0o600 });
  return secret;
}

export interface Box {
  app: ReturnType<typeof createBoxApp>;
  close(): Promise<void>;
}

export async function bootBox(env: BoxEnv): Promise<Box> {
  mkdirSync(env.dataDir, { recursive: true });
  const keyTable: KeyTable | null = env.keyTableUrl ? await openKeyTable(env.keyTableUrl) : null;
  const auth = new Authenticator(env.apiKeys, keyTable);
  const boxDb = await openBoxDb(env.dataDir);

  const configured = env.models ? parseModelList(env.models) : { decls: [], probes: new Map() };
  const catalogue: CatalogueRow[] = buildCatalogue(configured.decls, configured.probes, {
    allowOffshore: env.allowOffshoreModels,
    inCountry: true,
  });
  // The embedded voice engine; a failure leaves the box serving, with readiness saying why.
  let voiceProblem = "";
  const espeak = await EspeakEngine.load().catch((err: Error) => {
    voiceProblem = err.message;
    return null;
  });
  const ttsProviders: TtsProviderInfo[] = espeak
    ? [{ id: "espeak", label: "espeak-ng (embedded)", local: true, byo: false, clone: false, timings: true }]
    : [];
  const settings = new SettingsService(new SettingsStore(boxDb.db), { catalogue: () => catalogue, ttsProviders: () => ttsProviders }, boxDb.durable);
  const conversations = new ConversationService(
    new ConversationStore(boxDb.db),
    new TranscriptFiles(join(env.dataDir, "transcripts")),
    new CursorCodec(volumeSecret(env.dataDir)),
  );

  const sources: ReadinessSources = {
    async llm() {
      return { state: "not_configured", detail: "no language-model provider is configured" };
    },
    async tts() {
      if (espeak) return { state: "ready", detail: "", provider: "espeak", origin: "box", notice: "" };
      return { state: "unavailable", detail: `the embedded voice engine did not load: ${voiceProblem}`, provider: "espeak", origin: "box", notice: "" };
    },
    transcribe: () => false,
  };
  const live: LiveControl = { disconnect() {}, interrupt() {}, health: () => ({ avatar: null, speaking_face: null }) };
  const stats = new StatsService({ maxRuntimeSeconds: env.maxRuntimeSeconds, startedAt: Date.now() });

  const routes: RouteDef[] = [];
  const openapi = () => openApiDocument(routes);
  routes.push(
    ...systemRoutes(stats, live, openapi),
    ...tokenRoutes(keyTable),
    ...readinessRoutes(sources),
    ...settingsRoutes(settings),
    ...conversationRoutes(conversations),
  );
  const app = createBoxApp({ auth, allowedOrigins: env.allowedOrigins, routes });
  return {
    app,
    async close() {
      live.disconnect();
      keyTable?.close();
      boxDb.client.close();
    },
  };
}
