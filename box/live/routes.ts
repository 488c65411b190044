// Implements: POST /connect, POST /offer, POST /api/talk (Box: signalling and engine;
// Box: conversation and session).
import { Type } from "@sinclair/typebox";
import { ApiError } from "../../shared/errors/api-error.ts";
import { isTone, type Tone } from "../../shared/wire/tones.ts";
import { ConnectAnswer, ConnectBody, OfferAnswer, OfferBody, TalkAnswer, TalkBody } from "../../shared/wire/live.ts";
import { route, type RouteDef } from "../http/route.ts";
import { readJsonObject } from "../http/json-body.ts";
import type { AvatarRegistry, ResolvedAvatar } from "../avatars/registry.ts";
import type { SettingsService } from "../settings/service.ts";
import { ClauseSplitter } from "../text/clause-splitter.ts";
import type { LiveSessions } from "./manager.ts";
import { sanitizeClientContext } from "./client-context.ts";
import { clipUtterance, type Speaker } from "./speaker.ts";
import { DEFAULT_CLIP, type AudioStore } from "./audio-store.ts";
import { toneFromWords } from "../text/tone-from-words.ts";

export const TALK_MAX_CHARS = 4000;
const Flat = Type.Object({ error: Type.String(), code: Type.String() });

export interface LiveRouteDeps {
  sessions: LiveSessions;
  registry: AvatarRegistry;
  settings: SettingsService;
  speaker: Speaker;
  audio: AudioStore;
  /** Opens connections to the caller's model and voice providers (fire and forget). */
  warmUp?: (subject: string) => Promise<void>;
}

function optionalString(body: Record<string, unknown>, field: string): string | undefined {
  const v = body[field];
  if (v === undefined || v === null || v === "") return undefined;
  if (typeof v !== "string") throw new ApiError(400, "invalid_body", `${field} must be a string.`);
  return v;
}

function toneOf(body: Record<string, unknown>): Tone | undefined {
  const t = optionalString(body, "tone");
  if (t === undefined) return undefined;
  if (!isTone(t)) throw new ApiError(400, "unknown_tone", `"${t.slice(0, 40)}" is not a tone this box builds.`);
  return t;
}

export function liveRoutes(d: LiveRouteDeps): RouteDef[] {
  /** Per live session, the talk being queued now (the next waits for it). */
  const talking = new WeakMap<object, Promise<void>>();
  /** The avatar asked for, else the caller's saved one (when still loaded), else the active one. */
  async function pickAvatar(subject: string, asked: string | undefined, tone?: Tone): Promise<ResolvedAvatar> {
    let avatar: ResolvedAvatar | null = null;
    if (asked) avatar = d.registry.require(asked);
    else {
      const saved = (await d.settings.read(subject)).avatar;
      avatar = (saved && d.registry.resolve(saved)) || d.registry.require(d.registry.active);
    }
    return tone ? d.registry.require(`${avatar.avatarId}__${tone}`) : avatar;
  }

  return [
    route({
      method: "POST",
      path: "/connect",
      summary: "Open the live session (closes any previous one) and answer the WebRTC offer",
      envelope: "flat",
      body: ConnectBody,
      responses: { 200: ConnectAnswer, 400: Flat, 404: Flat },
      handler: async ({ request, principal }) => {
        const body = await readJsonObject(request, { limitBytes: 128 * 1024 });
        const avatar = await pickAvatar(principal.subject, optionalString(body, "avatar"));
        const { answer } = await d.sessions.open({ sdp: body.sdp, type: body.type }, avatar, sanitizeClientContext(body.client_context));
        // While the client sets up ICE and DTLS, the first turn's provider connections open.
        void d.warmUp?.(principal.subject);
        // Every face idles live from the renderer, so no other face's idle is ever borrowed.
        return { sdp: answer.sdp, type: "answer", avatar: avatar.variant, silence: avatar.variant, idle_stand_in: false };
      },
    }),
    route({
      method: "POST",
      path: "/offer",
      summary:
        "One-shot session: lip-sync an uploaded clip or a reply (`audio`, default: the box's default clip) on `avatar`, in `tone` or the one its words suggest",
      envelope: "flat",
      body: OfferBody,
      responses: { 200: OfferAnswer, 400: Flat, 404: Flat, 503: Flat },
      handler: async ({ request, principal }) => {
        const body = await readJsonObject(request, { limitBytes: 128 * 1024 });
        const explicitTone = toneOf(body);
        const audio = optionalString(body, "audio");
        // Another credential's upload or reply answers as a missing one (fact 8).
        const clip = d.audio.get(audio ?? DEFAULT_CLIP, principal.subject);
        if (!clip && audio !== undefined) throw new ApiError(404, "unknown_audio", `No uploaded audio named "${audio.slice(0, 80)}".`);
        if (!clip) throw new ApiError(503, "no_default_clip", "The box has no default clip (its voice engine did not start).");
        if (body.emotion_responsive !== undefined && typeof body.emotion_responsive !== "boolean")
          throw new ApiError(400, "invalid_body", "emotion_responsive must be true or false.");
        const responsive =
          (body.emotion_responsive as boolean | undefined) ?? (await d.settings.read(principal.subject)).emotion_responsive;
        // Without an explicit tone, a responsive caller gets the tone the clip was made with (a
        // reply's), given at upload, or read from its words (recognised at upload time: no wait here).
        const tone = explicitTone ?? (responsive ? (clip.tone ?? toneFromWords(clip.text)) : "neutral");
        const asked = optionalString(body, "avatar");
        // An inferred tone the face was not prepared with leaves the face as it is; an asked one must exist.
        const avatar =
          explicitTone || tone === "neutral"
            ? await pickAvatar(principal.subject, asked, tone)
            : await pickAvatar(principal.subject, asked).then((a) => d.registry.resolve(`${a.avatarId}__${tone}`) ?? a);
        const { session, answer } = await d.sessions.open({ sdp: body.sdp, type: body.type }, avatar, {});
        session.say(clipUtterance(clip.pcm, clip.sampleRate, avatar.tone, clip.text));
        return { sdp: answer.sdp, type: "answer", avatar: avatar.variant, emotion: avatar.tone, transcript: explicitTone ? "" : clip.text };
      },
    }),
    route({
      method: "POST",
      path: "/api/talk",
      summary: "Speak text as written into the live session (answers once queued)",
      envelope: "flat",
      body: TalkBody,
      responses: { 200: TalkAnswer, 400: Flat, 409: Flat, 503: Flat },
      handler: async ({ request, principal }) => {
        const body = await readJsonObject(request, { limitBytes: 256 * 1024 });
        const raw = body.text ?? body.content;
        if (raw !== undefined && typeof raw !== "string") throw new ApiError(400, "invalid_body", "text must be a string.");
        const text = (raw ?? "").trim();
        if (!text) throw new ApiError(400, "blank_text", "text is blank: send the words to speak.");
        if (text.length > TALK_MAX_CHARS)
          throw new ApiError(400, "text_too_long", `text is ${text.length} characters; at most ${TALK_MAX_CHARS} can be spoken at once.`);
        const tone = toneOf(body);
        const session = d.sessions.live();
        if (!session) throw new ApiError(409, "no_live_session", "No live session: call /connect first.");
        if (!d.speaker.available) throw new ApiError(503, "tts_not_configured", "Text to speech is not configured on this box.");
        const voice = optionalString(body, "voice");
        const splitter = new ClauseSplitter();
        const clauses = [...splitter.push(text), ...splitter.flush()];
        // Talks queue in the order they arrived, clauses whole: one talk's clauses never interleave another's.
        const asked = session.interruptions;
        // An interrupt (or barge-in) after the talk was asked for aborts the voice stream speaking it.
        const signal = session.interruptSignal;
        // The face on screen names its own voice when neither the talk nor the caller's settings do.
        const speak = (clause: string) =>
          d.speaker.live(
            clause,
            tone ?? session.avatar.tone,
            { subject: principal.subject, voice, avatar: session.avatar.avatarId },
            signal,
          );
        const turn = (talking.get(session) ?? Promise.resolve()).then(async () => {
          // Each clause plays from its first audio while the rest still streams in (a bad voice
          // refuses the talk here, before any sound); the next is asked for once it has all arrived.
          // An engine that fails mid-talk answers 502, and what was queued plays (a stream cut
          // mid-clause ends that clause where it broke). An interrupt stops the clauses not queued yet.
          for (const clause of clauses) {
            let g;
            try {
              g = await speak(clause);
            } catch (err) {
              if (session.interruptions !== asked) return;
              throw err;
            }
            if (session.interruptions !== asked) return;
            session.sayStream(g);
            await g.finished;
            if (session.interruptions !== asked) return;
            if (g.failure) throw new ApiError(502, "tts_failed", `The voice engine failed mid-sentence: ${g.failure.message}`);
          }
        });
        const settled = turn.catch(() => undefined);
        talking.set(session, settled);
        void settled.then(() => talking.get(session) === settled && talking.delete(session));
        await turn;
        return { ok: true, spoken: text };
      },
    }),
  ];
}
