// Implements: what a voice turn (voice-turn.ts) and the system tools (voice-tool-host.ts) use of
// the voice socket: its connection, dependencies, live session, turn core and call settings.
import type { Language } from "../../../shared/wire/tones.ts";
import type { LiveSession } from "../../live/live-session.ts";
import type { VoiceFrame } from "../../../shared/wire/socket-frames.ts";
import type { SocketConn } from "../conn.ts";
import type { SocketSession } from "../socket-session.ts";
import type { PauseState } from "./pause.ts";
import type { TurnCore } from "./turn-core.ts";
import type { VoiceSocketDeps } from "./mic-route.ts";

/** What a turn and the system tools use of the voice socket. */
export interface VoiceCall {
  readonly conn: SocketConn<VoiceFrame>;
  readonly d: VoiceSocketDeps;
  readonly live: LiveSession;
  readonly core: TurnCore;
  readonly session: SocketSession;
  readonly pause: PauseState;
  language: Language;
  voice: string | undefined;
  /** The provider of `voice` (the studio's pick); undefined: the caller's engine. */
  voiceProvider: string | undefined;
  /** Starts recognition in `language`, replacing the stream before it. */
  attachAsr(): Promise<void>;
}
