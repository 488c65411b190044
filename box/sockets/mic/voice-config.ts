// Implements: the voice socket's `config` message: the voice and its provider (checked before they
// are kept) and the avatar on screen.
import type { VoiceCall } from "./voice-call.ts";

export function applyConfig(call: VoiceCall, m: Record<string, unknown>): void {
  const { conn, d, live } = call;
  const provider = typeof m.voice_provider === "string" && m.voice_provider ? m.voice_provider : undefined;
  const voice = typeof m.voice === "string" && m.voice ? m.voice : undefined;
  if ((provider || voice) && d.accounts) {
    // Checked before it is kept: one provider's voice never goes through another's engine.
    const pick = { subject: conn.principal.subject, voice, provider };
    void d.accounts.checkPick(pick).then(
      () => ((call.voice = voice), (call.voiceProvider = provider)),
      (err: Error) => conn.send({ type: "error", error: err.message }),
    );
  }
  if (typeof m.avatar === "string" && m.avatar) {
    const a = d.registry.resolveFor(conn.principal.subject, m.avatar);
    if (a) live.setAvatar(a);
    else conn.send({ type: "error", error: `avatar "${m.avatar.slice(0, 60)}" is not loaded on this box.` });
  }
}
