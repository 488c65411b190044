// Implements: Control socket WSS /api/session/ws (camelCase) — its client messages, its twelve
// event types, and custom tool calls on the socket that owns the session.
import { randomBytes } from "node:crypto";
import { ApiError, UpstreamError } from "../../shared/errors/api-error.ts";
import { TONES, isTone, type Tone } from "../../shared/wire/tones.ts";
import type { Authenticator } from "../auth/principal.ts";
import type { TurnEngine } from "../chat/turn-engine.ts";
import type { ToolCalls } from "../chat/tool-calls.ts";
import { ClauseSplitter } from "../text/clause-splitter.ts";
import type { LiveSessions } from "../live/manager.ts";
import type { LiveSession } from "../live/live-session.ts";
import type { Speaker } from "../live/speaker.ts";
import type { VoiceAccounts } from "../tts/accounts.ts";
import type { AvatarRegistry } from "../avatars/registry.ts";
import type { SessionFrame } from "../../shared/wire/socket-frames.ts";
import type { SocketConn, SocketRoute } from "./conn.ts";
import { SocketSession, maxLengthFrom, type SocketPolicy } from "./socket-session.ts";
import { SpeechTracker } from "./speech-tracker.ts";
import { log } from "../../shared/util/log.ts";

export interface ControlSocketDeps {
  auth: Authenticator;
  engine: TurnEngine;
  calls: ToolCalls;
  sessions: LiveSessions;
  speaker: Speaker;
  registry: AvatarRegistry;
  policy: SocketPolicy;
  /** Who speaks for the caller: a voice account that is not the one asked for is a `warning`. */
  accounts?: VoiceAccounts | null;
  /** Stops the live turn and the speech at the next frame (the box's one interrupt). */
  interrupt(): void;
}

const MAX_TEXT = 16_000;
const NO_MEDIA = "No media session yet: the reply is not spoken. Open one with /connect.";

type Msg = Record<string, unknown> & { type: string };

class ControlSocket {
  private readonly session: SocketSession;
  readonly tracker: SpeechTracker;
  private readonly talkBuffers = new Map<string, string>();
  private queue: Promise<void> = Promise.resolve();
  private seq = 0;
  private offNotice: () => void = () => {};

  constructor(
    private readonly conn: SocketConn<SessionFrame>,
    private readonly d: ControlSocketDeps,
  ) {
    const policy = { ...d.policy, maxSeconds: maxLengthFrom(conn.query, d.policy.maxSeconds) };
    // Its idle clock is shared with the live session, and its ceiling is one more ceiling on that session.
    const binding = { current: () => d.sessions.live(), expire: d.sessions.expire.bind(d.sessions) };
    this.session = new SocketSession(conn, d.auth, policy, () => this.tracker.close(), binding);
    this.tracker = new SpeechTracker((type, correlationId) => conn.send({ type, correlationId }));
  }

  open(): void {
    const live = this.d.sessions.live();
    this.follow(live);
    this.conn.send({
      type: "session_ready",
      sessionId: this.conn.id,
      avatar: live?.avatar.variant ?? this.d.registry.active,
      tones: [...TONES],
    });
    this.session.start();
    const accounts = this.d.accounts;
    if (accounts) {
      const subject = this.conn.principal.subject;
      // Only the warning: an empty notice (the account works again) has no frame of its own here.
      this.offNotice = accounts.onNotice(subject, (notice) => notice && this.conn.send({ type: "warning", message: notice }));
      void accounts
        .noticeFor(subject)
        .then((notice) => notice && !this.conn.closed && this.conn.send({ type: "warning", message: notice }));
    }
  }

  /** Follows a live session; when a window ends it, this socket hears `session_expired` too. */
  follow(live: LiveSession | null): void {
    this.tracker.follow(live);
    if (live) void live.closedPromise.then(() => live.expiry && this.session.expired(live.expiry));
  }

  close(): void {
    this.offNotice();
    this.session.stop();
    this.tracker.close();
  }

  message(data: unknown): void {
    if (typeof data !== "object" || data === null || Array.isArray(data) || typeof (data as Msg).type !== "string") {
      if (typeof data === "string" || Buffer.isBuffer(data))
        this.conn.send({ type: "error", error: "Messages are JSON objects with a type.", fatal: false });
      return;
    }
    const m = data as Msg;
    if (m.type === "heartbeat") return; // deliberately not activity
    if (m.type === "auth") return void this.session.renew(m.token);
    if (m.type === "tool_result") return void this.d.calls.deliver(this.conn.id, m.call_id, m.ok, m.result, m.error);
    if (m.type === "interrupt") {
      this.session.activity();
      this.d.interrupt();
      this.conn.send({ type: "interrupted" });
      return;
    }
    if (m.type !== "message" && m.type !== "talk" && m.type !== "talkstream") return; // unknown types are ignored
    this.session.activity();
    const correlationId =
      typeof m.correlationId === "string" && m.correlationId.length <= 128 ? m.correlationId : `c_${randomBytes(6).toString("hex")}`;
    const job =
      m.type === "message"
        ? () => this.turn(m, correlationId)
        : m.type === "talk"
          ? () => this.talk(m, correlationId, text(m.content))
          : () => this.talkstream(m, correlationId);
    // Turns on one socket run one after another, in the order they were sent.
    this.queue = this.queue.then(job).catch((err) => this.refuse(err));
  }

  private refuse(err: unknown): void {
    const error = err instanceof ApiError || err instanceof UpstreamError ? err.message : "The turn failed.";
    if (!(err instanceof ApiError)) log.error("control turn failed", { error: String((err as Error)?.stack ?? err) });
    this.conn.send({ type: "error", error, fatal: false });
  }

  private async turn(m: Msg, correlationId: string): Promise<void> {
    const content = text(m.content);
    if (!content) throw new ApiError(400, "blank_message", "content is blank.");
    const live = this.d.sessions.live();
    this.tracker.follow(live);
    const prepared = await this.d.engine.prepare(this.conn.principal.subject, "live");
    const id = this.nextId();
    this.conn.send({ type: "user_message", id: `${id}_user`, role: "user", content, correlationId });
    if (!live) this.conn.send({ type: "warning", message: NO_MEDIA });
    let index = 0;
    let held: { content: string; tone: Tone } | null = null;
    const flush = (end: boolean) => {
      if (held)
        this.conn.send({
          type: "message_stream",
          id,
          role: "assistant",
          content: held.content,
          contentIndex: index++,
          endOfSpeech: end,
          tone: held.tone,
          correlationId,
        });
      held = null;
    };
    this.tracker.begin(correlationId);
    try {
      const out = await this.d.engine.run(prepared, {
        subject: this.conn.principal.subject,
        message: content,
        kind: "live",
        session: live,
        voice: typeof m.voice === "string" ? m.voice : undefined,
        offerCustomTools: true,
        toolOwner: this.conn.id,
        correlationId,
        emit: (e) => {
          if (this.conn.closed) return false;
          if (e.type === "reply_chunk") {
            flush(false); // one clause is held back so the last can say endOfSpeech
            held = { content: e.text, tone: e.tone };
          } else this.conn.send(e);
          return true;
        },
      });
      flush(true);
      this.conn.send({
        type: "message",
        id,
        role: "assistant",
        content: out.reply,
        tone: out.tone,
        avatar: live?.speakingFace ?? this.d.registry.active,
        correlationId,
      });
    } finally {
      this.tracker.done(correlationId);
    }
  }

  private async talk(m: Msg, correlationId: string, content: string): Promise<void> {
    if (!content) throw new ApiError(400, "blank_text", "content is blank.");
    if (content.length > MAX_TEXT) throw new ApiError(400, "text_too_long", `content is over ${MAX_TEXT} characters.`);
    const live = this.d.sessions.live();
    this.tracker.follow(live);
    const tone = isTone(m.tone) ? m.tone : (live?.avatar.tone ?? "neutral");
    if (!live) this.conn.send({ type: "warning", message: NO_MEDIA });
    else {
      const splitter = new ClauseSplitter();
      const voice = typeof m.voice === "string" ? m.voice : undefined;
      const utterances = [];
      for (const clause of [...splitter.push(content), ...splitter.flush()])
        utterances.push(await this.d.speaker.utterance(clause, tone, { subject: this.conn.principal.subject, voice }));
      this.tracker.begin(correlationId);
      for (const u of utterances) live.say({ ...u, correlationId });
      this.tracker.done(correlationId);
    }
    // Spoken as written; nothing is committed to the conversation.
    this.conn.send({
      type: "message",
      id: this.nextId(),
      role: "assistant",
      content,
      tone,
      avatar: live?.speakingFace ?? this.d.registry.active,
      correlationId,
    });
  }

  private async talkstream(m: Msg, correlationId: string): Promise<void> {
    const previous = m.startOfSpeech === true ? "" : (this.talkBuffers.get(correlationId) ?? "");
    const joined = previous + (typeof m.content === "string" ? m.content : "");
    if (joined.length > MAX_TEXT) {
      this.talkBuffers.delete(correlationId);
      throw new ApiError(400, "text_too_long", `talkstream text is over ${MAX_TEXT} characters.`);
    }
    if (m.endOfSpeech !== true) {
      this.talkBuffers.set(correlationId, joined);
      return;
    }
    this.talkBuffers.delete(correlationId);
    await this.talk(m, correlationId, joined.trim());
  }

  private nextId(): string {
    return `msg_${this.conn.id.slice(0, 8)}_${++this.seq}`;
  }
}

const text = (v: unknown) => (typeof v === "string" ? v.trim() : "");

export function controlSocketRoute(d: ControlSocketDeps): SocketRoute {
  const sockets = new Map<string, ControlSocket>();
  d.sessions.onOpened((s) => {
    for (const sock of sockets.values()) sock.follow(s);
  });
  return {
    path: "/api/session/ws",
    summary: "SDK control socket (camelCase): model turns, talk, talkstream, interrupt, auth, tools",
    open(conn) {
      const s = new ControlSocket(conn, d);
      sockets.set(conn.id, s);
      s.open();
    },
    message(conn, data) {
      sockets.get(conn.id)?.message(data);
    },
    close(conn) {
      sockets.get(conn.id)?.close();
      sockets.delete(conn.id);
      // A call this socket owned can no longer be answered.
      d.calls.failOwner(conn.id, "session_closed");
    },
  };
}
