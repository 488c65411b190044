// Implements: Control socket WSS /api/session/ws (camelCase): `message`, `talk`, `talkstream`,
// `interrupt`, `heartbeat`, `auth`, `tool_result`; a promise per turn, paired by correlationId.
// Turns on one socket run in the order sent and each ends with `message` or a non-fatal `error`
// (which carries no correlationId), so an `error` settles the oldest turn still waiting.
import { AvatarApiError } from "./errors.ts";
import { BoxSocket, now, type SocketOptions } from "./socket-base.ts";
import type { MessageFrame, MessageOptions, MessageStreamFrame, SessionFrames, TalkOptions } from "./wire.ts";

/** The box refuses longer talkstream text (checked here, so a refusal cannot go unpaired). */
export const TALK_TEXT_MAX = 16_000;

export interface TurnResult {
  correlationId: string;
  /** The closing `message` frame. */
  message: MessageFrame;
  /** The clauses as they streamed (`message_stream`), in order. */
  chunks: MessageStreamFrame[];
  /** Milliseconds from sending to the first clause, and to the first audio (`avatar_speech_started`;
   *  null when speech started after the closing `message`, as a `talk` does: see the `first_audio` mark). */
  firstChunkMs: number | null;
  firstAudioMs: number | null;
}

export interface SessionSocketOptions extends SocketOptions {
  /** `heartbeat` interval while open, in ms (default 20 s; 0: none). Heartbeats are not activity. */
  heartbeatMs?: number;
}

interface PendingTurn {
  correlationId: string;
  sentAt: number;
  chunks: MessageStreamFrame[];
  firstChunkMs: number | null;
  firstAudioMs: number | null;
  resolve(r: TurnResult): void;
  reject(e: unknown): void;
}

const KNOWN = new Set([
  "session_ready",
  "user_message",
  "message_stream",
  "message",
  "avatar_speech_started",
  "avatar_speech_ended",
  "interrupted",
  "warning",
  "auth_required",
  "auth_state",
  "error",
  "session_expired",
  "tool_call_started",
  "tool_call",
  "tool_call_completed",
  "tool_call_failed",
  "tool",
]);

let seq = 0;
const newCorrelationId = () => `c_${Date.now().toString(36)}_${(++seq).toString(36)}_${Math.random().toString(36).slice(2, 8)}`;

export class SessionSocket extends BoxSocket<SessionFrames> {
  protected readonly path = "/api/session/ws";
  protected readonly readyType = "session_ready";
  protected readonly known = KNOWN;
  private readonly turns = new Map<string, PendingTurn>();
  private readonly talkLengths = new Map<string, number>();
  /** When recent turns were sent: speech often starts after the closing `message` (talk). */
  private readonly sentAt = new Map<string, { at: number; audio: boolean }>();
  private heartbeat: ReturnType<typeof setInterval> | null = null;
  /** The `session_ready` frame of the current connection. */
  session: SessionFrames["session_ready"] | null = null;

  /** One model turn; resolves with the reply when its `message` arrives. */
  message(content: string, opts: MessageOptions = {}): Promise<TurnResult> {
    return this.turn(opts.correlationId, (correlationId) => ({
      type: "message",
      content,
      ...pick(opts, "avatar", "voice"),
      correlationId,
    }));
  }

  /** Speaks `content` as written (no model, nothing committed to history). */
  talk(content: string, opts: TalkOptions = {}): Promise<TurnResult> {
    return this.turn(opts.correlationId, (correlationId) => ({ type: "talk", content, ...pick(opts, "voice", "tone"), correlationId }));
  }

  /**
   * Feeds a reply generated elsewhere, piece by piece under one correlationId; the promise of the
   * piece with `endOfSpeech` resolves when it was spoken, earlier pieces resolve at once.
   */
  talkstream(
    content: string,
    opts: TalkOptions & { startOfSpeech?: boolean; endOfSpeech?: boolean; correlationId: string },
  ): Promise<TurnResult | null> {
    const { correlationId } = opts;
    const length = (opts.startOfSpeech ? 0 : (this.talkLengths.get(correlationId) ?? 0)) + content.length;
    const frame = {
      type: "talkstream",
      content,
      startOfSpeech: opts.startOfSpeech === true,
      endOfSpeech: opts.endOfSpeech === true,
      ...pick(opts, "voice", "tone"),
      correlationId,
    };
    if (length > TALK_TEXT_MAX) {
      this.talkLengths.delete(correlationId);
      return Promise.reject(
        new AvatarApiError(0, "text_too_long", `talkstream text is over ${TALK_TEXT_MAX} characters.`, { source: "local" }),
      );
    }
    if (!opts.endOfSpeech) {
      try {
        this.send(frame);
      } catch (err) {
        return Promise.reject(err);
      }
      this.talkLengths.set(correlationId, length);
      return Promise.resolve(null);
    }
    this.talkLengths.delete(correlationId);
    return this.turn(correlationId, () => frame);
  }

  /** Barge in; resolves on the `interrupted` acknowledgement. */
  interrupt(): Promise<void> {
    try {
      this.send({ type: "interrupt" });
    } catch (err) {
      return Promise.reject(err);
    }
    return this.emitter.next("interrupted", 10_000).then(
      () => undefined,
      () =>
        Promise.reject(
          new AvatarApiError(0, "no_acknowledgement", "The box did not acknowledge the interrupt within 10 s.", { source: "local" }),
        ),
    );
  }

  private turn(asked: string | undefined, frame: (correlationId: string) => object): Promise<TurnResult> {
    const correlationId = asked ?? newCorrelationId();
    if (this.turns.has(correlationId))
      return Promise.reject(
        new AvatarApiError(0, "duplicate_correlation_id", `A turn with correlationId "${correlationId}" is still waiting.`, {
          source: "local",
        }),
      );
    return new Promise<TurnResult>((resolve, reject) => {
      this.send(frame(correlationId));
      const at = now();
      this.turns.set(correlationId, { correlationId, sentAt: at, chunks: [], firstChunkMs: null, firstAudioMs: null, resolve, reject });
      this.sentAt.set(correlationId, { at, audio: false });
      if (this.sentAt.size > 64) this.sentAt.delete(this.sentAt.keys().next().value!);
    });
  }

  protected override onOpened(): void {
    const every = (this.options as SessionSocketOptions).heartbeatMs ?? 20_000;
    if (every > 0) this.heartbeat = setInterval(() => this.connected && this.send({ type: "heartbeat" }), every);
    (this.heartbeat as { unref?: () => void } | null)?.unref?.();
  }

  protected override onFrame(f: { type: string; [k: string]: unknown }): void {
    const turn = typeof f.correlationId === "string" ? this.turns.get(f.correlationId) : undefined;
    switch (f.type) {
      case "session_ready":
        this.session = f as unknown as SessionFrames["session_ready"];
        return;
      case "message_stream":
        if (!turn) return;
        turn.chunks.push(f as unknown as MessageStreamFrame);
        if (turn.firstChunkMs === null)
          this.mark("first_chunk", (turn.firstChunkMs = now() - turn.sentAt), { correlationId: turn.correlationId });
        return;
      case "avatar_speech_started": {
        const sent = typeof f.correlationId === "string" ? this.sentAt.get(f.correlationId) : undefined;
        if (!sent || sent.audio) return;
        sent.audio = true;
        const ms = now() - sent.at;
        if (turn) turn.firstAudioMs = ms;
        this.mark("first_audio", ms, { correlationId: f.correlationId as string });
        return;
      }
      case "message":
        if (!turn) return;
        this.turns.delete(turn.correlationId);
        turn.resolve({
          correlationId: turn.correlationId,
          message: f as unknown as MessageFrame,
          chunks: turn.chunks,
          firstChunkMs: round(turn.firstChunkMs),
          firstAudioMs: round(turn.firstAudioMs),
        });
        return;
      case "error": {
        if (f.fatal === true) return; // the close that follows settles every turn
        const oldest = this.turns.values().next().value;
        if (!oldest) return;
        this.turns.delete(oldest.correlationId);
        oldest.reject(new AvatarApiError(0, "turn_refused", String(f.error ?? "The turn failed."), { source: "frame", body: f }));
        return;
      }
    }
  }

  protected override onTransportClosed(error: AvatarApiError): void {
    if (this.heartbeat) clearInterval(this.heartbeat);
    this.heartbeat = null;
    this.session = null;
    this.talkLengths.clear();
    const closed = new AvatarApiError(0, "session_closed", `The socket closed before the turn ended: ${error.message}`, {
      source: "close",
      closeCode: error.closeCode,
      cause: error,
    });
    for (const t of [...this.turns.values()]) t.reject(closed);
    this.turns.clear();
  }
}

function pick<T extends object, K extends keyof T>(o: T, ...keys: K[]): Partial<Pick<T, K>> {
  const out: Partial<Pick<T, K>> = {};
  for (const k of keys) if (o[k] !== undefined) out[k] = o[k];
  return out;
}

const round = (v: number | null) => (v === null ? null : Math.round(v));
