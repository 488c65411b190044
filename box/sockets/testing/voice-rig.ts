// A voice socket on fakes, driven in audio time (no box, no model files): the microphone's audio
// goes through the real VoiceSocket, its TurnCore and VAD segmenter; the VAD model scores a window
// by its loudness, the recogniser says what the test tells it, and the turn engine records each
// turn and keeps the real engine's promise for a speculative one (nothing until confirmed, a drop
// ends in `speculation_dropped`). Frames the socket sends collect in `frames`.
import type { Principal } from "../../auth/principal.ts";
import { speculationDropped, type TurnEngine, type TurnRequest } from "../../chat/turn-engine.ts";
import type { ConfirmGate } from "../../chat/confirm-gate.ts";
import type { LiveSession } from "../../live/live-session.ts";
import type { AsrEngine, AsrEvents, AsrStream } from "../../stt/asr.ts";
import type { SileroVad } from "../../stt/silero-vad.ts";
import type { SocketConn } from "../conn.ts";
import { VoiceSocket } from "../mic/mic-socket.ts";
import type { VoiceSocketDeps } from "../mic/mic-route.ts";

/** A VAD window at or above this RMS (of [-1, 1] samples) is voice. */
const VOICED_RMS = 0.05;

class FakeAsr implements AsrStream {
  private readonly listeners = new Map<keyof AsrEvents, Set<(...args: never[]) => void>>();
  write(): void {}
  on<E extends keyof AsrEvents>(event: E, listener: AsrEvents[E]): this {
    if (!this.listeners.has(event)) this.listeners.set(event, new Set());
    this.listeners.get(event)!.add(listener);
    return this;
  }
  off<E extends keyof AsrEvents>(event: E, listener: AsrEvents[E]): this {
    this.listeners.get(event)?.delete(listener);
    return this;
  }
  async finish(): Promise<string> {
    return "";
  }
  close(): void {}
  finalize(): void {}
  emit(event: "partial" | "final", text: string): void {
    for (const l of this.listeners.get(event) ?? []) (l as unknown as (t: string) => void)(text);
  }
}

export interface RigTurn {
  message: string;
  /** The gate of a speculative turn; null for one started after the end of turn. */
  gate: ConfirmGate | null;
}

/** Runs `body` on a fresh rig and tears its socket down afterwards, whatever happened. */
export async function withVoiceRig(body: (rig: VoiceRig) => Promise<void>): Promise<void> {
  const rig = await voiceRig();
  try {
    await body(rig);
  } finally {
    rig.close();
  }
}

export type VoiceRig = Awaited<ReturnType<typeof voiceRig>>;

export async function voiceRig() {
  const frames: Record<string, any>[] = [];
  const turns: RigTurn[] = [];
  const asr = new FakeAsr();
  const vad = {
    async process(w: Float32Array) {
      let sum = 0;
      for (const x of w) sum += x * x;
      return Math.sqrt(sum / w.length) >= VOICED_RMS ? 0.95 : 0.02;
    },
    reset() {},
    async dispose() {},
  } as unknown as SileroVad;
  const engine = {
    async prepare() {
      return { settings: { system_tools: [] }, modelId: "fake" };
    },
    async run(_p: unknown, req: TurnRequest) {
      turns.push({ message: req.message, gate: req.gate ?? null });
      // The real engine emits through the gate: nothing of an unconfirmed turn reaches the socket.
      if (req.gate && !(await req.gate.decided)) throw speculationDropped();
      req.emit({ type: "reply_chunk", text: `Reply to ${req.message}.`, tone: "neutral" });
      return { reply: `Reply to ${req.message}.`, tone: "neutral", tools: [], interrupted: false };
    },
  } as unknown as TurnEngine;
  const live = {
    isClosed: false,
    closedPromise: new Promise<void>(() => {}),
    expiry: null,
    speaking: false,
    speakingFace: "stock",
    avatar: { tone: "neutral" },
    lastActivity: 0,
    touch() {},
    onSpeech: () => () => {},
    holdSpeech: () => false,
    releaseSpeech() {},
    interruptions: 0,
  } as unknown as LiveSession;
  const conn: SocketConn = {
    id: "rig-conn-0001",
    principal: { subject: "rig", scope: "full", digest: null, kind: "open", expiresAt: null } as unknown as Principal,
    secret: null,
    query: new URLSearchParams(),
    send: (f) => void frames.push(f as Record<string, any>),
    close() {},
    closed: false,
  };
  const deps = {
    auth: { open: true },
    engine,
    calls: { deliver() {}, failOwner() {}, fail() {} },
    sessions: { expire() {} },
    speaker: {},
    registry: { resolveFor: () => null },
    accounts: null,
    asr: { id: "fake", start: async () => asr } as AsrEngine,
    loadVad: async () => vad,
    hears: () => true,
    interrupt() {},
    disconnect() {},
    policy: { idleSeconds: 600, maxSeconds: null, checkEveryMs: 60_000 },
    pauseMaxSeconds: 60,
    bargePause: true,
    speculative: true,
  } as unknown as VoiceSocketDeps;
  const socket = new VoiceSocket(conn, deps, live);
  await socket.start();
  /** Lets the VAD's queued windows and the turn's promises run. */
  const settle = async () => {
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
  };
  return {
    frames,
    turns,
    socket,
    /** `ms` of microphone audio in 20 ms frames: voice (a loud square wave) or silence. */
    async audio(ms: number, voiced: boolean): Promise<void> {
      for (let t = 0; t < ms; t += 20) {
        const pcm = Int16Array.from({ length: 320 }, (_, i) => (voiced ? (i % 2 ? 8000 : -8000) : 0));
        socket.message(Buffer.from(pcm.buffer));
        await settle();
      }
    },
    /** A short lead-in of silence, 400 ms of voice and the recogniser's words for it (a partial). */
    async utterance(text: string): Promise<void> {
      await this.audio(200, false);
      await this.audio(300, true);
      await this.words(text);
      await this.audio(100, true);
    },
    /** The recogniser's words: a partial (the utterance so far) or a final. */
    async words(text: string, kind: "partial" | "final" = "partial"): Promise<void> {
      asr.emit(kind, text);
      await settle();
    },
    settle,
    types: () => frames.map((f) => f.type),
    close: () => socket.teardown(),
  };
}
