// Composition root: builds every component from the typed environment and returns the app.
import { mkdirSync, readFileSync, writeFileSync, existsSync } from "node:fs";
import { randomBytes } from "node:crypto";
import { join } from "node:path";
import type { BoxEnv } from "./env.ts";
import { createBoxApp } from "./app.ts";
import { openKeyTable, type KeyTable } from "./auth/key-table.ts";
import { Authenticator } from "./auth/principal.ts";
import { openBoxDb } from "./db/client.ts";
import { parseModelList } from "./catalogue/config.ts";
import { ConversationService } from "./conversations/service.ts";
import { ConversationStore } from "./conversations/store.ts";
import { TranscriptFiles } from "./conversations/transcripts.ts";
import { CursorCodec } from "./conversations/cursor.ts";
import { conversationRoutes } from "./conversations/routes.ts";
import { SettingsService } from "./settings/service.ts";
import type { TtsProviderInfo } from "../shared/wire/settings.ts";
import { SettingsStore } from "./settings/store.ts";
import { settingsRoutes } from "./settings/routes.ts";
import { tokenRoutes } from "./tokens/routes.ts";
import { readinessRoutes } from "./readiness/routes.ts";
import type { ReadinessSources } from "./readiness/service.ts";
import { UpstreamHealth } from "./readiness/upstream-health.ts";
import { StatsService } from "./system/stats.ts";
import { systemRoutes } from "./system/routes.ts";
import { openApiDocument } from "./http/openapi.ts";
import type { RouteDef } from "./http/route.ts";
import type { LiveControl } from "./system/live.ts";
import { EspeakEngine } from "./tts/espeak-engine.ts";
import { FaceRenderer } from "./render/face-renderer.ts";
import { AvatarRegistry } from "./avatars/registry.ts";
import { avatarRoutes } from "./avatars/routes.ts";
import { openOwnAvatars, withCallers } from "./avatars/own/wire.ts";
import { openClips } from "./avatars/clips/wire.ts";
import { wireArchive } from "./avatars/archive/wire.ts";
import { LiveSessions } from "./live/manager.ts";
import { liveRoutes } from "./live/routes.ts";
import { audioUploadRoutes } from "./audio-uploads/routes.ts";
import { providerWarmUp } from "./live/warm-up.ts";
import { Speaker } from "./live/speaker.ts";
import { AudioStore } from "./live/audio-store.ts";
import { createProviders } from "./llm/registry.ts";
import { ModelRouter } from "./chat/model-router.ts";
import { TurnEngine } from "./chat/turn-engine.ts";
import { TurnTools } from "./chat/turn-tools.ts";
import { ToolCalls } from "./chat/tool-calls.ts";
import { ModerationScreen } from "./chat/moderation.ts";
import { chatRoutes } from "./chat/routes.ts";
import { createBuiltinTools } from "./tools/builtin/registry.ts";
import { controlSocketRoute } from "./sockets/control-socket.ts";
import { voiceSocketRoute } from "./sockets/mic/mic-route.ts";
import { createAsr } from "./stt/registry.ts";
import { SileroVad } from "./stt/silero-vad.ts";
import { createClient } from "@libsql/client";
import { wireVoices } from "./tts/wire.ts";
import { VOICE_MAKERS } from "./tts/makers.ts";
import { voiceRoutes } from "./tts/routes.ts";
import { WordPhonemizer } from "./lipsync/word-visemes.ts";
import { ChatterboxEngine } from "./tts/chatterbox/chatterbox-engine.ts";
import { bootProbe } from "./tts/boot-probe.ts";
import { log, type LogLevel } from "../shared/util/log.ts";

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
  const router = new ModelRouter(createProviders({ ...env.llm, probeDir: env.dataDir }), configured, {
    allowOffshore: env.allowOffshoreModels,
    inCountry: true,
    health: env.readiness,
  });
  // Never rejects: a provider that is down is re-checked with backoff, and readiness says so meanwhile.
  await router.load();
  // The embedded voice engine; a failure leaves the box serving, with readiness saying why. It
  // synthesises in a worker thread, so a clause never holds up the media clock.
  let voiceProblem = "";
  const espeak = await EspeakEngine.load({ thread: true }).catch((err: Error) => {
    voiceProblem = err.message;
    return null;
  });
  let ttsProviders: TtsProviderInfo[] = [];
  const settings = new SettingsService(
    new SettingsStore(boxDb.db),
    { catalogue: () => router.catalogue, ttsProviders: () => ttsProviders },
    boxDb.durable,
  );
  // Who speaks for whom: the engine the box boots on (BOX_TTS), people's own keys, the fallback.
  const sharedDb = env.keyTableUrl ? createClient({ url: env.keyTableUrl }) : null;
  const voices = await wireVoices({
    env: env.tts,
    espeak,
    makers: VOICE_MAKERS,
    sharedDb,
    keyTable,
    settings,
    retryMs: env.readiness.retryMs,
    boxKeys: env.apiKeys,
    log: ({ level, msg, ...rest }) => log.at(level as LogLevel, String(msg), rest),
  });
  if (!voices && espeak) voiceProblem = `BOX_TTS=${env.tts.engine} could not be set up`;
  ttsProviders = voices?.ttsProviders ?? [];
  const bootEngine = voices?.accounts.bootEngine ?? null;
  // Checked at start (a self-hosted server may not be there) and, while down, on the model
  // providers' backoff; synthesis failing after boot marks it failing. (A failed load is a missing
  // file on this machine, not an outage: it needs a restart, so it is not re-tried.)
  const voiceHealth = bootEngine ? new UpstreamHealth(bootEngine.id, bootProbe(bootEngine), env.readiness) : null;
  const voiceChecked = voiceHealth?.check();
  const conversations = new ConversationService(
    new ConversationStore(boxDb.db),
    new TranscriptFiles(join(env.dataDir, "transcripts")),
    new CursorCodec(volumeSecret(env.dataDir)),
  );

  const asr = createAsr(env.asr);
  log.info("speech recognition", { engine: asr.engine?.id ?? null, reason: asr.reason });
  const sources: ReadinessSources = {
    async llm(subject) {
      const s = await settings.read(subject);
      return router.stateFor(s.live_model || s.model);
    },
    async tts(subject) {
      if (!voices || !voiceHealth)
        return { provider: env.tts.engine, origin: "box" as const, notice: "", state: "unavailable", detail: voiceProblem };
      const route = await voices.accounts.verify(await voices.accounts.route({ subject }).catch(() => voices.accounts.boxRoute()), subject);
      const base = { provider: route.provider, origin: route.origin, notice: route.notice };
      // A person's own account is reported by its notice; the box's engine by its health.
      if (route.origin === "user" || route.engine !== bootEngine)
        return { ...base, state: route.engine.ready ? "ready" : "starting", detail: "" };
      return { ...base, state: voiceHealth.state, detail: voiceHealth.detail };
    },
    transcribe: () => asr.engine !== null,
  };
  // The built-in face warp, or a learned model the user put on the volume (same I/O contract).
  const renderer = await FaceRenderer.load({ width: env.videoSize, height: env.videoSize, modelPath: env.renderModelPath ?? undefined });
  const registry = await AvatarRegistry.load(renderer, await openOwnAvatars({ env, renderer, localDb: boxDb.client, keyTable }));
  const clipBuilds = openClips({
    enabled: env.avatarClips,
    dataDir: env.dataDir,
    registry,
    size: env.videoSize,
    renderModelPath: env.renderModelPath ?? undefined,
  });
  // Finished portraits and clips are copied into the portal's store (off unless BOX_ASSET_* is set).
  wireArchive({ env, keyTable, own: registry.own ?? null, clips: clipBuilds.clips });
  const live = new LiveSessions(
    registry,
    { renderer, loopbackOnly: env.iceLoopbackOnly, fps: 25, perception: env.perception },
    env.sockets,
  );
  // Hosted voices give word timings, not phonemes: espeak's text-to-phonemes maps them to visemes.
  const speaker = new Speaker(voices?.accounts ?? null, 25, voiceHealth, espeak ? new WordPhonemizer(espeak) : null);
  const audio = new AudioStore(join(env.dataDir, "audio"), env.replyAudio);
  await audio.ensureDefault(espeak).catch((err: Error) => log.error("default clip unavailable", { error: err.message }));
  const calls = new ToolCalls();
  const engine = new TurnEngine({
    router,
    settings,
    conversations,
    moderation: new ModerationScreen(env.moderation),
    tools: new TurnTools(createBuiltinTools({ ...env.builtinTools, deploymentTimeZone: env.timeZone }), calls),
    calls,
    speaker,
    timeZone: env.timeZone,
    visionModels: env.visionModels,
  });
  // An interrupt stops the turn speaking into the session as well as the speech itself.
  const liveControl: LiveControl = {
    health: () => live.health(),
    disconnect: () => (engine.interruptLive(), live.disconnect()),
    interrupt: () => (engine.interruptLive(), live.interrupt()),
  };
  // However a live session ends (an idle window too), the turn speaking into it stops and its calls are cancelled.
  live.onOpened((s) => void s.closedPromise.then(() => engine.interruptLive()));
  const stats = new StatsService({ maxRuntimeSeconds: env.maxRuntimeSeconds, startedAt: Date.now() });

  const sockets = [
    controlSocketRoute({
      auth,
      engine,
      calls,
      sessions: live,
      speaker,
      registry,
      accounts: voices?.accounts ?? null,
      policy: env.sockets,
      interrupt: () => liveControl.interrupt(),
    }),
    voiceSocketRoute({
      auth,
      engine,
      calls,
      sessions: live,
      speaker,
      registry,
      accounts: voices?.accounts ?? null,
      asr: asr.engine,
      asrReason: asr.reason,
      grammar: env.asr.grammar,
      loadVad: () => SileroVad.load(),
      // The embedded recogniser has an English model only; the hosted one hears them all.
      hears: (lang) => asr.engine?.id !== "pocketsphinx" || lang === "en",
      interrupt: () => liveControl.interrupt(),
      disconnect: () => liveControl.disconnect(),
      policy: env.sockets,
      pauseMaxSeconds: env.pauseMaxSeconds,
      bargePause: env.bargePause,
      speculative: env.speculativeReplies,
    }),
  ];
  const routes: RouteDef[] = [];
  const openapi = () =>
    openApiDocument(
      routes,
      sockets.map((s) => ({ path: s.path, method: "get", summary: s.summary })),
    );
  routes.push(
    ...systemRoutes(stats, liveControl, openapi),
    ...tokenRoutes(keyTable),
    ...readinessRoutes(sources),
    ...settingsRoutes(settings),
    ...conversationRoutes(conversations),
    ...avatarRoutes(registry, { onScreen: () => live.live()?.avatar ?? null, buildClips: clipBuilds.buildClips }),
    ...clipBuilds.routes,
    ...liveRoutes({
      sessions: live,
      registry,
      settings,
      speaker,
      audio,
      warmUp: providerWarmUp({ settings, router, accounts: voices?.accounts ?? null }),
    }),
    ...audioUploadRoutes({ store: audio, asr: asr.engine }),
    ...(voices
      ? voiceRoutes({
          accounts: voices.accounts,
          chatterbox: bootEngine instanceof ChatterboxEngine ? bootEngine : null,
          bootHealth: voiceHealth,
        })
      : []),
    ...chatRoutes({ engine, calls, sessions: live, registry, speaker, accounts: voices?.accounts ?? null, audio }),
  );
  // Each handler runs as its caller, so avatar lookups by id alone see that caller's uploads only.
  const app = createBoxApp({ auth, allowedOrigins: env.allowedOrigins, routes: withCallers(routes), sockets });
  live.prepare(); // a warm video encoder waits for the first /connect
  await voiceChecked; // never rejects: readiness reports the engine from the first request on
  return {
    app,
    async close() {
      router.close();
      voiceHealth?.close();
      sharedDb?.close();
      liveControl.disconnect();
      live.close();
      espeak?.thread?.close();
      await renderer.dispose().catch(() => undefined);
      await clipBuilds.dispose();
      keyTable?.close();
      boxDb.client.close();
    },
  };
}
