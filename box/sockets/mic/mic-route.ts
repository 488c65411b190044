// Implements: the voice socket's upgrade and refusals (WebSocket refusals: 4001 no recognition,
// 4002 no live session, 4003 mic slot taken, 4005 recognition would not start, 4006 set-up
// failed) and the single mic slot.
import type { Language } from "../../../shared/wire/tones.ts";
import type { Authenticator } from "../../auth/principal.ts";
import type { AvatarRegistry } from "../../avatars/registry.ts";
import type { TurnEngine } from "../../chat/turn-engine.ts";
import type { ToolCalls } from "../../chat/tool-calls.ts";
import type { LiveSessions } from "../../live/manager.ts";
import type { Speaker } from "../../live/speaker.ts";
import type { AsrEngine } from "../../stt/asr.ts";
import type { SileroVad } from "../../stt/silero-vad.ts";
import type { VoiceAccounts } from "../../tts/accounts.ts";
import type { SocketRoute } from "../conn.ts";
import type { SocketPolicy } from "../socket-session.ts";
import { VoiceSocket } from "./mic-socket.ts";

export interface VoiceSocketDeps {
  auth: Authenticator;
  engine: TurnEngine;
  calls: ToolCalls;
  sessions: LiveSessions;
  speaker: Speaker;
  registry: AvatarRegistry;
  /** Who speaks for the caller, and the voice notices (`voice_notice` frames). */
  accounts: VoiceAccounts | null;
  /** null: no recognition configured (4001); `asrReason` says why. */
  asr: AsrEngine;
  loadVad(): Promise<SileroVad>;
  hears(lang: Language): boolean;
  /** Expected sentences for recognisers that take a grammar (BOX_ASR_GRAMMAR). */
  grammar?: string[];
  /** Stops the live turn and the speech at the next frame (the box's one interrupt). */
  interrupt(): void;
  disconnect(): void;
  policy: SocketPolicy;
  pauseMaxSeconds: number;
  /** BOX_BARGE_PAUSE: hold the avatar at the first voice over it, then interrupt or resume (barge-in.ts); default on. */
  bargePause?: boolean;
  /** BOX_SPECULATIVE_REPLIES: start the reply during the end-of-turn wait (metric `spec`). */
  speculative: boolean;
}

export function voiceSocketRoute(d: Omit<VoiceSocketDeps, "asr"> & { asr: AsrEngine | null; asrReason: string }): SocketRoute {
  const sockets = new Map<string, VoiceSocket>();
  let micHolder: string | null = null;

  const refuse = (conn: Parameters<SocketRoute["open"]>[0], error: string, code: number) => {
    conn.send({ type: "error", error, fatal: true, code });
    conn.close(code, error);
  };

  return {
    path: "/api/voice/ws",
    summary: "Microphone socket: 16 kHz mono s16le in; partial, final, reply_chunk, action... out",
    open(conn) {
      if (!d.asr) return refuse(conn, `No speech recognition is configured on this box (${d.asrReason}).`, 4001);
      const live = d.sessions.live();
      if (!live) return refuse(conn, "No live session yet: open one with /connect, then reconnect.", 4002);
      if (micHolder && micHolder !== conn.id) return refuse(conn, "Another socket holds the microphone; try again once it closes.", 4003);
      micHolder = conn.id; // claimed before anything async, so racing sockets cannot both win
      const sock = new VoiceSocket(conn, { ...d, asr: d.asr }, live);
      sockets.set(conn.id, sock);
      void sock.start();
    },
    message(conn, data) {
      sockets.get(conn.id)?.message(data);
    },
    close(conn) {
      sockets.get(conn.id)?.teardown();
      sockets.delete(conn.id);
      if (micHolder === conn.id) micHolder = null;
      d.calls.failOwner(conn.id, "session_closed");
    },
  };
}
