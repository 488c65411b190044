// Implements: Box: voices — GET /api/voices (the catalogue), GET /api/voice/preview, POST
// /api/voice/upload and POST /api/voice/prepare (cloning and warming, only on a box booted on the
// self-hosted engine: the check uses the boot engine, never the caller's choice).
import { Type } from "@sinclair/typebox";
import { ApiError, UpstreamError } from "../../shared/errors/api-error.ts";
import { route, type RouteDef } from "../http/route.ts";
import { readJsonObject } from "../http/json-body.ts";
import { readUploadForm } from "../http/multipart.ts";
import type { VoiceAccounts, VoiceRoute } from "./accounts.ts";
import { VoiceCatalogue, type ProviderSlot } from "./catalogue.ts";
import { ownerTag } from "./clone-owners.ts";
import type { ChatterboxEngine } from "./chatterbox/chatterbox-engine.ts";
import { prepareReferenceClip, ReferenceClipError } from "./chatterbox/reference-clip.ts";
import { VoiceProviderError } from "./engine.ts";
import { encodeWav } from "./wav.ts";
import { VoiceCatalogueSchema, VoiceUploadAnswerSchema } from "../../shared/wire/voices.ts";

/** What every preview says. */
export const PREVIEW_SENTENCE = "Hello! This is how I sound when I talk with you.";
/** Previews kept in memory (per provider, account and voice). */
const PREVIEW_CACHE_ENTRIES = 200;
/** A reference clip must fit in the request (spec Limits: no separate upload handoff). */
export const REFERENCE_CLIP_MAX_BYTES = 25 * 1024 * 1024;

const Flat = Type.Object({ error: Type.String(), code: Type.String() });

export interface VoiceRouteDeps {
  accounts: VoiceAccounts;
  /** The box's boot engine as a Chatterbox client (cloning and warming), or null. */
  chatterbox?: ChatterboxEngine | null;
  ffmpegPath?: string;
  /** The boot engine's health (readiness `tts_state`): it speaks for `engine_ready` on the box's account. */
  bootHealth?: { readonly state: string } | null;
}

/** Who speaks for `subject`; a pick that cannot be used reads as the box's engine here. */
async function speakingRoute(accounts: VoiceAccounts, subject: string): Promise<VoiceRoute> {
  const r = await accounts.route({ subject }).catch(() => accounts.boxRoute(undefined, subject));
  return accounts.verify(r, subject);
}

export function voiceRoutes(d: VoiceRouteDeps): RouteDef[] {
  const { accounts } = d;
  const previews = new Map<string, Uint8Array>();

  /** Every provider as this caller can reach it. */
  async function slotsFor(subject: string, speaking: VoiceRoute): Promise<ProviderSlot[]> {
    return Promise.all(
      accounts.providers.map(async (p): Promise<ProviderSlot> => {
        if (p.id === speaking.provider) return accounts.slotOf(speaking);
        const r = await accounts.route({ subject, provider: p.id }).catch(() => null);
        if (r && r.provider === p.id) return accounts.slotOf(r);
        const how = p.withKey
          ? `save your ${p.label} key on the portal's Voices page${p.requiresEnv ? ` or give the box one (${p.requiresEnv})` : ""}`
          : `the box needs ${p.requiresEnv ?? "it configured"}`;
        return {
          provider: p.id,
          label: p.label,
          local: p.local,
          engine: null,
          account: "box",
          missing: { state: p.withKey ? "key_problem" : "refused", reason: `${p.label} is not set up for you: ${how}.` },
        };
      }),
    );
  }

  const clonable = () => {
    const boot = accounts.boot;
    if (boot.id !== "chatterbox" || !d.chatterbox) {
      throw new ApiError(
        400,
        "voice_cloning_unavailable",
        `Voice cloning and warming work only on a box booted on the self-hosted engine (BOX_TTS=chatterbox); this box runs ${boot.label}.`,
      );
    }
    return d.chatterbox;
  };

  return [
    route({
      method: "GET",
      path: "/api/voices",
      summary: "The voice catalogue: one group per provider with its state and reason, every voice flattened; `refresh=true` refetches",
      envelope: "flat",
      query: Type.Object({ refresh: Type.Optional(Type.String()) }),
      responses: { 200: VoiceCatalogueSchema },
      handler: async ({ principal, query }) => {
        const subject = principal.subject;
        const refresh = (query.get("refresh") ?? "").toLowerCase() === "true";
        const speaking = await speakingRoute(accounts, subject);
        const groups = await accounts.catalogue.groups(await slotsFor(subject, speaking), refresh);
        const entry = accounts.provider(speaking.provider)!;
        const current =
          speaking.voice ?? speaking.engine.defaultVoiceId ?? groups.find((g) => g.provider === speaking.provider)?.voices[0]?.id ?? null;
        for (const g of groups) if (g.provider === speaking.provider) for (const v of g.voices) v.recommended = v.id === current;
        return {
          groups,
          voices: VoiceCatalogue.flatten(groups, "espeak"),
          current,
          current_provider: speaking.provider,
          engine_ready:
            speaking.engine.ready && !(speaking.engine === accounts.bootEngine && d.bootHealth && d.bootHealth.state !== "ready"),
          provider: speaking.provider,
          provider_label: speaking.label,
          requires_env: accounts.boot.boxEngine ? null : (accounts.boot.requiresEnv ?? null),
          voices_from: speaking.provider,
          local: entry.local,
          byo: speaking.origin === "user",
          voice_notice: speaking.notice,
        };
      },
    }),
    route({
      method: "GET",
      path: "/api/voice/preview",
      summary: "WAV of a short fixed sentence in a voice (default: the caller's current voice and engine); cached per provider and voice",
      envelope: "flat",
      query: Type.Object({ voice: Type.Optional(Type.String()), provider: Type.Optional(Type.String()) }),
      responses: { 200: { contentType: "audio/wav", description: "The preview" }, 400: Flat, 404: Flat, 502: Flat, 503: Flat },
      handler: async ({ principal, query }) => {
        const voice = query.get("voice") || undefined;
        const provider = query.get("provider") || undefined;
        if (voice && (voice.length > 200 || /[\u0000-\u001f]/.test(voice)))
          throw new ApiError(400, "unknown_voice", "voice is not a voice id.");
        let r: VoiceRoute;
        try {
          r = await accounts.route({ subject: principal.subject, voice, provider });
        } catch (err) {
          // A provider the caller cannot use, or a voice id that is a file path: nothing to preview.
          if (err instanceof ApiError && (err.code === "voice_provider_unavailable" || err.code === "unknown_voice"))
            throw new ApiError(404, err.code, err.message);
          throw err;
        }
        // A person's key that is failing routes to the box's engine: a preview of another voice would mislead.
        if (provider && r.provider !== provider)
          throw new ApiError(
            404,
            "voice_provider_unavailable",
            `${accounts.provider(provider)?.label ?? provider} cannot speak for you right now: ${r.notice}`,
          );
        const key = `${r.provider}\u0000${r.account}\u0000${r.voice ?? ""}`;
        const hit = previews.get(key);
        if (hit) return wav(hit);
        let bytes: Uint8Array;
        try {
          const u = await r.engine.synthesize(PREVIEW_SENTENCE, { voice: r.voice });
          bytes = encodeWav(u.pcm, u.sampleRate);
        } catch (err) {
          if (err instanceof UpstreamError && err.status === 404)
            throw new ApiError(
              404,
              "unknown_voice",
              `No voice ${JSON.stringify((r.voice ?? "").slice(0, 60))} at ${r.label}: ${err.message}`,
            );
          throw new ApiError(502, "tts_failed", `The voice engine (${r.label}) failed: ${(err as Error).message}`);
        }
        if (previews.size >= PREVIEW_CACHE_ENTRIES) previews.delete(previews.keys().next().value!);
        previews.set(key, bytes);
        return wav(bytes);
      },
    }),
    route({
      method: "POST",
      path: "/api/voice/upload",
      summary: "Clone a voice from a reference clip (multipart `file`, `name`): self-hosted engine only",
      envelope: "flat",
      responses: { 200: VoiceUploadAnswerSchema, 400: Flat, 413: Flat, 502: Flat, 503: Flat },
      handler: async ({ request, principal }) => {
        const engine = clonable();
        const form = await readUploadForm(request, { limitBytes: REFERENCE_CLIP_MAX_BYTES, filePart: "file", textParts: ["name"] });
        const name = (form.fields.name ?? "").trim() || form.file.filename.replace(/\.[^.]*$/, "").trim();
        if (!name) throw new ApiError(400, "blank_name", "name is blank: send a display name for the voice.");
        if (name.length > 80 || /[\u0000-\u001f]/.test(name))
          throw new ApiError(400, "invalid_name", "name must be at most 80 characters, with no control characters.");
        let clip;
        try {
          clip = await prepareReferenceClip(form.file.bytes, { ffmpegPath: d.ffmpegPath });
        } catch (err) {
          if (err instanceof ReferenceClipError) {
            if (err.reason === "unavailable")
              throw new ApiError(503, "clip_check_unavailable", `The reference clip could not be checked on this box: ${err.message}`);
            throw new ApiError(400, "invalid_reference_clip", `The reference clip is ${err.message}`);
          }
          throw err;
        }
        let voiceId: string;
        try {
          // The clone is the uploader's (the key, or the key a token was minted from).
          voiceId = await engine.uploadReference(name, clip.wav, form.file.filename || `${name}.wav`, ownerTag(principal.subject));
        } catch (err) {
          throw upstream(err, "Chatterbox could not take the reference clip");
        }
        accounts.catalogue.forget("chatterbox");
        const slot: ProviderSlot = { ...accounts.slotOf(accounts.boxRoute(voiceId, principal.subject)), engine };
        const [group] = await accounts.catalogue.groups([slot], true);
        const speaking = await speakingRoute(accounts, principal.subject);
        return {
          ok: true as const,
          voice_id: voiceId,
          voices: group.voices,
          current: speaking.voice ?? speaking.engine.defaultVoiceId ?? null,
        };
      },
    }),
    route({
      method: "POST",
      path: "/api/voice/prepare",
      summary: "Warm a voice on the self-hosted engine (body `voice`); the engine's answer passed through",
      envelope: "flat",
      body: Type.Object({ voice: Type.String() }),
      responses: { 200: Type.Unknown(), 400: Flat, 404: Flat, 502: Flat },
      handler: async ({ request, principal }) => {
        const engine = clonable();
        const body = await readJsonObject(request, { limitBytes: 16 * 1024 });
        const voice = typeof body.voice === "string" ? body.voice.trim() : "";
        if (!voice) throw new ApiError(400, "blank_voice", "voice is blank: name the voice to warm.");
        // Another credential's clone is answered as a voice the server does not have.
        if (!accounts.mayUse(principal.subject, engine.id, voice))
          throw new ApiError(
            404,
            "unknown_voice",
            `Chatterbox could not warm the voice: ${JSON.stringify(voice.slice(0, 60))} is not a voice of ${accounts.boot.label}.`,
          );
        try {
          return await engine.prepareVoice(voice);
        } catch (err) {
          throw upstream(err, "Chatterbox could not warm the voice");
        }
      },
    }),
  ];
}

function wav(bytes: Uint8Array): Response {
  return new Response(bytes as Uint8Array<ArrayBuffer>, {
    headers: { "content-type": "audio/wav", "cache-control": "private, max-age=3600" },
  });
}

/** An engine failure as the spec's 502 (a voice it does not have: 404). */
function upstream(err: unknown, what: string): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof VoiceProviderError && err.status === 404) return new ApiError(404, "unknown_voice", `${what}: ${err.message}`);
  return new ApiError(502, "voice_engine_failed", `${what}: ${(err as Error)?.message ?? String(err)}`);
}
