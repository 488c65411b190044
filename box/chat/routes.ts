// Implements: POST /api/chat (its four response modes and the NDJSON stream) and
// POST /api/chat/tool_result.
import { Type } from "@sinclair/typebox";
import { ApiError, UpstreamError, errorBody } from "../../shared/errors/api-error.ts";
import { TONES } from "../../shared/wire/tones.ts";
import { ChatBody, ToolResultBody, ToolResultDisposition } from "../../shared/wire/chat.ts";
import { route, type RouteDef } from "../http/route.ts";
import { readJsonObject } from "../http/json-body.ts";
import type { AvatarRegistry } from "../avatars/registry.ts";
import type { LiveSessions } from "../live/manager.ts";
import type { Speaker } from "../live/speaker.ts";
import type { VoiceAccounts, VoicePick } from "../tts/accounts.ts";
import type { TurnEngine, TurnOutcome } from "./turn-engine.ts";
import type { ToolCalls } from "./tool-calls.ts";
import { NdjsonStream, wantsStream } from "./ndjson.ts";
import type { AudioStore } from "../live/audio-store.ts";

/** Streamed typed turns answerable at once per credential. */
export const MAX_STREAMED_TURNS = 8;

export interface ChatRouteDeps {
  engine: TurnEngine;
  calls: ToolCalls;
  sessions: LiveSessions;
  registry: AvatarRegistry;
  speaker: Speaker;
  accounts: VoiceAccounts | null;
  audio: AudioStore;
}

const Flat = Type.Object({ error: Type.String(), code: Type.String() });

function str(body: Record<string, unknown>, field: string): string | undefined {
  const v = body[field];
  if (v === undefined || v === null || v === "") return undefined;
  if (typeof v !== "string") throw new ApiError(400, "invalid_body", `${field} must be a string.`);
  return v;
}

export function chatRoutes(d: ChatRouteDeps): RouteDef[] {
  const streaming = new Map<string, number>();

  /** The caller's pick (voice + provider), refused before the turn when it cannot speak. */
  async function checkVoice(body: Record<string, unknown>, subject: string): Promise<VoicePick & { subject: string }> {
    const pick = { subject, voice: str(body, "voice"), provider: str(body, "voice_provider") };
    if (!d.speaker.available || !d.accounts) throw new ApiError(503, "tts_not_configured", "Text to speech is not configured on this box.");
    await d.accounts.checkPick(pick);
    return pick;
  }
  /** Non-empty exactly while this caller's replies are spoken by the box's engine instead of their account. */
  const noticeOf = (subject: string) => d.accounts?.noticeFor(subject) ?? Promise.resolve("");

  return [
    route({
      method: "POST",
      path: "/api/chat",
      summary: "One conversational turn: into the live session, or synthesised for /offer; NDJSON when asked",
      envelope: "flat",
      body: ChatBody,
      responses: {
        200: {
          contentType: "application/json or application/x-ndjson",
          description: "Reply body, or one JSON frame per line (reply_chunk, tool, tool_call_*, reply | error)",
        },
        400: Flat,
        429: Flat,
        502: Type.Object({ error: Type.String(), code: Type.String(), interrupted: Type.Optional(Type.Boolean()) }),
        503: Flat,
      },
      handler: async ({ request, principal }) => {
        const body = await readJsonObject(request, { limitBytes: 256 * 1024 });
        const message = typeof body.message === "string" ? body.message.trim() : "";
        if (typeof body.message !== "string" && body.message !== undefined)
          throw new ApiError(400, "invalid_body", "message must be a string.");
        if (!message) throw new ApiError(400, "blank_message", "message is blank: send what the person said.");
        if (message.length > 16_000) throw new ApiError(400, "message_too_long", "message is over 16000 characters.");
        const pick = await checkVoice(body, principal.subject);
        const session = d.sessions.live();
        const avatarAsked = str(body, "avatar");
        const avatar = avatarAsked ? d.registry.require(avatarAsked) : session ? session.avatar : d.registry.require(d.registry.active);
        const prepared = await d.engine.prepare(principal.subject, session ? "live" : "one_shot");
        const stream = wantsStream(request.headers.get("accept"), body);
        const identity = avatar.avatarId;
        const replyBody = async (o: TurnOutcome) =>
          session
            ? {
                reply: o.reply,
                tone: o.tone,
                avatar: session.speakingFace,
                tools: o.tools,
                streamed: true as const,
                identity,
                tones: [...TONES],
                voice_notice: await noticeOf(principal.subject),
              }
            : {
                reply: o.reply,
                tone: o.tone,
                audio: await d.audio.synthesise(d.speaker, o.reply, o.tone, { ...pick, avatar: identity }),
                identity,
                tones: [...TONES],
                voice_notice: await noticeOf(principal.subject),
              };

        if (!stream) {
          const out = await d.engine.run(prepared, {
            subject: principal.subject,
            message,
            kind: session ? "live" : "one_shot",
            session,
            voice: pick.voice,
            voiceProvider: pick.provider,
            offerCustomTools: false,
            toolOwner: principal.subject,
            emit: () => true,
          });
          return replyBody(out);
        }

        const count = streaming.get(principal.subject) ?? 0;
        if (count >= MAX_STREAMED_TURNS)
          throw new ApiError(429, "too_many_turns", `At most ${MAX_STREAMED_TURNS} streamed turns can run at once per credential.`);
        streaming.set(principal.subject, count + 1);
        let released = false;
        const release = () => {
          if (released) return;
          released = true;
          const left = (streaming.get(principal.subject) ?? 1) - 1;
          if (left > 0) streaming.set(principal.subject, left);
          else streaming.delete(principal.subject);
        };
        // Bun aborts request.signal when the client closes the connection, before or after the
        // response started: the turn is no longer answerable, so its slot is free at once.
        const gone = request.signal;
        gone.addEventListener("abort", release, { once: true });
        const nd = new NdjsonStream();
        const turn = d.engine
          .run(prepared, {
            subject: principal.subject,
            message,
            kind: session ? "live" : "one_shot",
            session,
            voice: pick.voice,
            voiceProvider: pick.provider,
            offerCustomTools: true,
            toolOwner: principal.subject,
            callerGone: gone,
            // Without a live session the words arrive as the one closing reply frame (with audio).
            emit: (e) => (session || e.type !== "reply_chunk" ? nd.write(e) : true),
          })
          // Nobody reads a reply whose caller left: no WAV is made for it.
          .then(async (o) => gone.aborted || nd.write({ type: "reply", ...(await replyBody(o)) }))
          .catch((err) => {
            if (nd.written === 0) throw err; // nothing sent yet: answer with a status instead
            const e =
              err instanceof ApiError ? errorBody(err, "flat") : { error: err instanceof UpstreamError ? err.message : "The turn failed." };
            nd.write({ type: "error", error: e.error, ...(e.interrupted ? { interrupted: true } : {}) });
          })
          .finally(() => {
            gone.removeEventListener("abort", release);
            release();
            nd.end();
          });
        await Promise.race([nd.wroteFirst, turn.catch(() => undefined)]);
        if (nd.written === 0) await turn; // rethrows the failure as an ordinary status
        return nd.response();
      },
    }),
    route({
      method: "POST",
      path: "/api/chat/tool_result",
      summary: "The application's result for a custom tool call of a typed turn (same credential)",
      envelope: "flat",
      body: ToolResultBody,
      responses: { 200: ToolResultDisposition },
      handler: async ({ request, principal }) => {
        const body = await readJsonObject(request, { limitBytes: 512 * 1024 });
        if (typeof body.ok !== "boolean") throw new ApiError(400, "invalid_body", "ok must be true or false.");
        return d.calls.deliver(principal.subject, body.call_id, body.ok, body.result, body.error);
      },
    }),
  ];
}
