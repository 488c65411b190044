// Implements: the vocabulary of the voice socket's turn-taking core (turn-core.ts): the actions
// it asks of the socket, what the socket sees at each event, and the core's options.
import type { VoiceFrame } from "../../../shared/wire/socket-frames.ts";
import type { ConfirmGate } from "../../chat/confirm-gate.ts";

/** The two wall-clock timers: the end of turn's backstop and the barge-in hold's. */
export type TurnTimer = "end_of_turn" | "barge_in";

/** What the core asks of the adapter; done at once and in order. */
export type TurnAction =
  | { type: "send"; frame: VoiceFrame }
  /** Runs a turn on these words now. */
  | { type: "turn"; message: string }
  /** Runs a turn on these words behind `gate`: nothing of it shows until it is confirmed. */
  | { type: "speculate"; message: string; gate: ConfirmGate }
  | { type: "confirm"; gate: ConfirmGate }
  | { type: "drop"; gate: ConfirmGate }
  /** The avatar's speech: paused at the next frame, resumed from there, or interrupted. */
  | { type: "hold_speech" }
  | { type: "release_speech" }
  | { type: "interrupt" }
  /** The recogniser is told to settle its words now. */
  | { type: "finalize_words" }
  /** The VAD forgets its recurrent state (a silence between turns). */
  | { type: "forget_voice_history" }
  /** Real speech ended a turn: a pause in progress ends ("spoke"). */
  | { type: "end_pause" }
  /** The person did something: the idle window starts again. */
  | { type: "activity" }
  /** Calls `fired(timer)` after `ms` of wall time (replacing one armed before), or not at all. */
  | { type: "arm"; timer: TurnTimer; ms: number }
  | { type: "disarm"; timer: TurnTimer };

/** What the adapter sees at the moment of an event: whether the VAD is in speech, whether the avatar speaks. */
export interface Senses {
  vadSpeaking: boolean;
  avatarSpeaking: boolean;
}

export interface TurnCoreOptions {
  /** BOX_SPECULATIVE_REPLIES: start the reply during the end-of-turn wait. */
  speculative: boolean;
  /** BOX_BARGE_PAUSE: hold the avatar at the first voice over it, then interrupt or resume. */
  bargePause: boolean;
  /** Wall clock (ms): the end of the voice (first_audio_ms) and held words' expiry count from it. */
  now: () => number;
}
