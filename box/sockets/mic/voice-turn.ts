// Implements: one turn on the voice socket: the turn engine's run on the words the turn core
// settled, with its frames (`state` thinking and speaking, `metric`, `reply`, `reply_error`) and,
// for a speculative turn, every frame and effect held behind its confirmation gate.
import { UpstreamError } from "../../../shared/errors/api-error.ts";
import type { VoiceFrame } from "../../../shared/wire/socket-frames.ts";
import type { ConfirmGate } from "../../chat/confirm-gate.ts";
import { runSystemTool, systemToolSpecs } from "./system-tools.ts";
import { voiceToolHost } from "./voice-tool-host.ts";
import type { VoiceCall } from "./voice-call.ts";
import { log } from "../../../shared/util/log.ts";

export class VoiceTurns {
  private seq = 0;

  constructor(private readonly call: VoiceCall) {}

  /** One turn; `gate`: a speculative one, whose every frame and effect waits for confirmation. */
  async run(message: string, gate: ConfirmGate | null = null): Promise<void> {
    const { conn, d, live, core } = this.call;
    const later = (fn: () => void) => (gate ? gate.hold(fn) : fn());
    const send = (f: VoiceFrame) => later(() => conn.send(f));
    later(() => {
      core.turnStarted(message);
      this.call.pause.endByReply();
    });
    const correlationId = `voice_${conn.id.slice(0, 8)}_${++this.seq}`;
    let firstAudio = false;
    const off = live.onSpeech((e) => {
      if (e.utterance.correlationId !== correlationId) return;
      if (e.kind === "start" && !firstAudio) {
        firstAudio = true;
        // A speculative turn speaks only once confirmed: its first audio is at most the wait away.
        // Read now, not at the turn's start: a speculation starts before the VAD has ended the
        // stretch, so the end of this voice was not known then.
        conn.send({ type: "metric", first_audio_ms: Math.round(performance.now() - core.lastVoiceAt), spec: gate !== null });
        conn.send({ type: "state", speaking: true, bargein: false });
      }
    });
    send({ type: "state", thinking: true });
    try {
      const prepared = await d.engine.prepare(conn.principal.subject, "live");
      const out = await d.engine.run(prepared, {
        subject: conn.principal.subject,
        message,
        kind: "live",
        session: live,
        voice: this.call.voice,
        voiceProvider: this.call.voiceProvider,
        offerCustomTools: true,
        toolOwner: conn.id,
        correlationId,
        language: this.call.language,
        ...(gate ? { gate } : {}),
        emit: (e) => (conn.closed ? false : (conn.send(e), true)),
        systemTools: {
          specs: systemToolSpecs(prepared.settings.system_tools),
          run: (name, args, said) => runSystemTool(voiceToolHost(this.call), name, args, said, message),
        },
      });
      if (out.reply) send({ type: "reply", reply: out.reply, tone: out.tone, avatar: live.speakingFace });
    } catch (err) {
      // Barged in before anything was said: the person has the floor, nothing failed. A dropped
      // speculative turn is gone without a trace.
      const code = (err as { code?: string }).code;
      if (code === "interrupted" || code === "speculation_dropped") return;
      const error = err instanceof Error ? err.message : "The turn failed.";
      if (!(err instanceof UpstreamError) && !(err as { status?: number }).status)
        log.error("voice turn failed", { error: String((err as Error)?.stack ?? err) });
      send({ type: "reply_error", error });
    } finally {
      off();
      later(() => {
        core.turnEnded();
        this.call.session.activity();
        conn.send({ type: "state", thinking: false });
      });
    }
  }
}
