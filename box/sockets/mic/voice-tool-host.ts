// Implements: what the voice socket lends the system tools (system-tools.ts): its frames, a spoken
// line and whether it was talked over, the voice for a language, the recogniser's switch, skip_turn's
// held words, a pause and the end of the call.
import { voiceForCall } from "../../tts/voice-language.ts";
import { isTone } from "../../../shared/wire/tones.ts";
import type { SystemToolHost } from "./system-tools.ts";
import type { VoiceCall } from "./voice-call.ts";

/** The voice asked for; the face on screen names its own when neither this nor the settings do. */
function pickOf(call: VoiceCall) {
  return { subject: call.conn.principal.subject, voice: call.voice, provider: call.voiceProvider, avatar: call.live.avatar.avatarId };
}

export function voiceToolHost(call: VoiceCall): SystemToolHost {
  const { conn, d, live, core } = call;
  return {
    language: call.language,
    send: (f) => conn.send(f),
    speakLine: async (text, voice) => {
      if (text) {
        const u = await d.speaker.utterance(text, isTone(live.avatar.tone) ? live.avatar.tone : "neutral", {
          ...pickOf(call),
          voice: voice ?? call.voice,
        });
        live.say(u);
      }
      const before = core.bargeIns;
      await live.quiet();
      return !live.isClosed && before === core.bargeIns;
    },
    voiceFor: async (lang) => {
      if (!d.accounts) return null;
      const route = await d.accounts.route(pickOf(call));
      const rows = await d.accounts.rowsOf(route).catch(() => []);
      const v = voiceForCall(route.provider, rows, lang, route.voice ?? route.engine.defaultVoiceId ?? null);
      return v ? { id: v.id, name: v.name } : null;
    },
    hears: (lang) => d.hears(lang),
    switchLanguage: async (lang, voice) => {
      call.language = lang;
      call.voice = voice;
      await call
        .attachAsr()
        .catch((err) => conn.send({ type: "error", error: `Speech recognition could not switch language: ${(err as Error).message}` }));
    },
    holdWords: (text, ms) => core.holdWords(text, ms),
    beginPause: () => {
      call.session.activity(); // the idle window counts from when the pause began
      call.pause.begin();
    },
    endCall: async () => {
      core.endCall();
      conn.send({ type: "session_end", reason: "ended_by_persona_request" });
      conn.close(1000, "call ended");
      d.disconnect();
    },
  };
}
