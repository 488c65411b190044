// Implements: what both sockets share: the credential at upgrade as `?session_token=` (a browser
// WebSocket cannot set headers), renewal with `auth` before the credential ages out and on
// `auth_required`, custom tools on the socket that owns the session, unknown types ignored, and
// reconnects by close code (see reconnect.ts).
import { AvatarApiError } from "./errors.ts";
import { Emitter, type Handlers } from "./events.ts";
import type { HttpCore } from "./http.ts";
import { backoffDelay, closeVerdict, type BackoffOptions, type CloseVerdict, type DisconnectReason } from "./reconnect.ts";
import { ToolDispatcher, type ToolRegistry } from "./tools.ts";
import type { ToolCallFailedFrame, ToolCallFrame } from "./wire.ts";

/** The part of the platform WebSocket this library uses (browsers, Bun, Node 22, or `ws`). */
export interface WebSocketLike {
  readonly readyState: number;
  binaryType: string;
  send(data: string | ArrayBufferLike | ArrayBufferView): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: string, listener: (event: any) => void): void;
}
export type WebSocketCtor = new (url: string) => WebSocketLike;

export interface SocketOptions {
  /** The WebSocket constructor (default: the platform's; on Node 20 pass the `ws` package's). */
  WebSocket?: WebSocketCtor;
  /** Reconnect tries and delays, or false to never reconnect. */
  reconnect?: BackoffOptions | false;
  /** `max_session_length_seconds` on the upgrade (0: no ceiling of this socket's own). */
  maxSessionLengthSeconds?: number;
}

export interface TimingMark {
  /** `socket_open`, `ready`, `first_chunk`, `first_audio`, `turn_latency`, `first_frame`... */
  mark: string;
  /** Milliseconds since the origin of the mark (open() for sockets, the turn's send for turns). */
  ms: number;
  correlationId?: string;
  spec?: boolean;
}

export interface SocketLocalEvents {
  /** The transport is up (not yet proof that the session works: see `ready` / `session_ready`). */
  connected: { attempt: number };
  disconnected: { code: number; reason: DisconnectReason; message: string; willRetry: boolean; retryInMs?: number; error?: AvatarApiError };
  reconnecting: { attempt: number; delayMs: number; reason: DisconnectReason };
  /** Every frame, recognised or not. */
  frame: { type: string; [field: string]: unknown };
  /** A tool call answered `ok: false` by the library, with the real error. */
  tool_handler_error: { call_id: string; name: string; error: unknown; sent: string };
  /** The token provider failed while renewing. */
  auth_error: { error: unknown };
  timing: TimingMark;
}

export const OPEN = 1;

const CLIENT: CloseVerdict = { reason: "client", retry: false, minDelayMs: 0, advice: "Closed by the application." };

/** One connection: its WebSocket, its tool calls (ids are remembered per socket) and its hold on renewal. */
interface Connection {
  ws: WebSocketLike;
  dispatcher: ToolDispatcher;
  release(): void;
}

export abstract class BoxSocket<F extends object> {
  protected readonly emitter = new Emitter<F & SocketLocalEvents>();
  private conn: Connection | null = null;
  /** Bumped by every dial and by close(): a superseded connection reports nothing more. */
  private generation = 0;
  private stopped = true;
  private attempts = 0;
  private retryTimer: ReturnType<typeof setTimeout> | null = null;
  protected startedAt = 0;
  private readyPromise: Promise<void> | null = null;
  private settleReady: { resolve(): void; reject(e: unknown): void } | null = null;

  protected abstract readonly path: string;
  /** The frame that proves the session works (`ready`, `session_ready`). */
  protected abstract readonly readyType: string;
  /** Server frame types emitted by name; anything else reaches only `frame`. */
  protected abstract readonly known: ReadonlySet<string>;

  constructor(
    protected readonly http: HttpCore,
    protected readonly tools: ToolRegistry,
    protected readonly options: SocketOptions = {},
  ) {}

  /** Subscribes a callback map; answers its unsubscribe. */
  on(map: Handlers<F & SocketLocalEvents>): () => void {
    return this.emitter.on(map);
  }

  get connected(): boolean {
    return this.conn?.ws.readyState === OPEN;
  }

  /** Opens the socket (again after close()); resolves on the frame that proves the session works. */
  open(): Promise<void> {
    if (!this.readyPromise) {
      this.stopped = false;
      this.attempts = 0;
      this.startedAt = now();
      this.readyPromise = new Promise<void>((resolve, reject) => (this.settleReady = { resolve, reject }));
      this.readyPromise.catch(() => undefined);
      void this.dial();
    }
    return this.readyPromise;
  }

  /** Closes for good (no reconnect); calls still running fail `session_closed` locally. */
  close(): void {
    if (this.stopped) return;
    this.stopped = true;
    this.generation++;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    const conn = this.conn;
    this.conn = null;
    if (conn) {
      conn.release();
      conn.dispatcher.close();
      if (conn.ws.readyState <= OPEN) conn.ws.close(1000, "client closed");
    }
    this.ended(1000, "", CLIENT);
  }

  /** Sends one JSON control frame; throws when the socket is not open. */
  protected send(frame: object): void {
    const ws = this.conn?.ws;
    if (!ws || ws.readyState !== OPEN) throw new AvatarApiError(0, "not_connected", "The socket is not open.", { source: "local" });
    ws.send(JSON.stringify(frame));
  }

  /** Sends one binary frame (dropped when the socket is not open). */
  protected sendBinary(data: ArrayBufferView): void {
    const ws = this.conn?.ws;
    if (ws?.readyState === OPEN) ws.send(data);
  }

  protected mark(mark: string, ms: number, extra: Partial<TimingMark> = {}): void {
    this.emitter.emit("timing", { mark, ms: Math.round(ms), ...extra } as never);
  }

  protected emitWire(frame: { type: string }): void {
    if (this.known.has(frame.type)) this.emitter.emit(frame.type as never, frame as never);
  }

  /** Hooks for the two sockets. */
  protected onOpened(): void {}
  protected onFrame(_frame: { type: string; [k: string]: unknown }): void {}
  protected onTransportClosed(_error: AvatarApiError): void {}

  private async dial(): Promise<void> {
    const gen = ++this.generation;
    const Ctor = this.options.WebSocket ?? (globalThis as { WebSocket?: WebSocketCtor }).WebSocket;
    if (!Ctor)
      return this.giveUp(
        new AvatarApiError(
          0,
          "no_websocket",
          "No WebSocket on this platform: pass one as options.WebSocket (on Node 20, the ws package's).",
          { source: "local" },
        ),
      );
    let token: string | null;
    try {
      token = await this.http.credentials.current();
    } catch (error) {
      if (gen !== this.generation) return;
      this.emitter.emit("auth_error", { error } as never);
      return this.ended(
        1006,
        "",
        { reason: "connection_failed", retry: true, minDelayMs: 1_000, advice: "The token provider failed." },
        error,
      );
    }
    if (gen !== this.generation) return;
    const query = { session_token: token, max_session_length_seconds: this.options.maxSessionLengthSeconds };
    const ws = new Ctor(this.http.socketUrl(this.path, query));
    ws.binaryType = "arraybuffer";
    let opened = false;
    let failure = "";
    let fatal: { code: number; error: string } | null = null;
    let sessionEnded = false;
    // Each connection remembers its own call ids; a call can only be answered on the socket that got it.
    const conn: Connection = {
      ws,
      release: () => {},
      dispatcher: new ToolDispatcher(this.tools, (f) => ws.readyState === OPEN && ws.send(JSON.stringify(f)), {
        failed: (f: ToolCallFailedFrame) => this.emitWire(f),
        handlerError: (info) => this.emitter.emit("tool_handler_error", info as never),
      }),
    };
    this.conn = conn;
    const current = () => gen === this.generation;
    ws.addEventListener("open", () => {
      if (!current()) return;
      opened = true;
      const offRenewed = this.http.credentials.onRenewed(
        (fresh) => ws.readyState === OPEN && ws.send(JSON.stringify({ type: "auth", token: fresh })),
      );
      const releaseHold = this.http.credentials.hold();
      conn.release = () => (offRenewed(), releaseHold());
      this.mark("socket_open", now() - this.startedAt);
      this.emitter.emit("connected", { attempt: this.attempts } as never);
      this.onOpened();
    });
    ws.addEventListener("error", (ev: { message?: string; error?: { message?: string } }) => {
      failure = ev?.message ?? ev?.error?.message ?? failure;
    });
    ws.addEventListener("message", (ev: { data: unknown }) => {
      if (!current()) return;
      const frame = parseFrame(ev.data);
      if (!frame) return;
      if (frame.type === "error" && frame.fatal === true && typeof frame.code === "number")
        fatal = { code: frame.code, error: String(frame.error ?? "") };
      if (frame.type === "session_expired") fatal = { code: Number(frame.code), error: String(frame.message ?? "") };
      if (frame.type === "session_end") sessionEnded = true;
      this.route(frame, conn.dispatcher);
    });
    ws.addEventListener("close", (ev: { code: number; reason: string }) => {
      conn.release();
      conn.dispatcher.close();
      if (!current()) return;
      this.conn = null;
      void this.afterClose(gen, ev.code, String(ev.reason ?? ""), opened, failure, fatal, sessionEnded);
    });
  }

  private route(frame: { type: string; [k: string]: unknown }, dispatcher: ToolDispatcher): void {
    this.emitter.emit("frame", frame as never);
    if (frame.type === this.readyType) {
      this.attempts = 0;
      this.mark("ready", now() - this.startedAt);
      this.settleReady?.resolve();
    }
    if (frame.type === "tool_call") dispatcher.onCall(frame as unknown as ToolCallFrame);
    if (frame.type === "tool_call_completed" || frame.type === "tool_call_failed") dispatcher.onEnded(String(frame.call_id));
    if (frame.type === "auth_required") void this.renew();
    this.onFrame(frame);
    this.emitWire(frame);
  }

  /** `auth_required`: ask the provider again; the fresh token goes out as `auth` (onRenewed). */
  private async renew(): Promise<void> {
    if (!this.http.credentials.renewable) return;
    const before = this.http.credentials.token;
    try {
      const fresh = await this.http.credentials.refresh();
      if (fresh === before)
        throw new AvatarApiError(0, "token_not_renewed", "The token provider answered the token that aged out.", { source: "local" });
    } catch (error) {
      this.emitter.emit("auth_error", { error } as never);
    }
  }

  private async afterClose(
    gen: number,
    code: number,
    reason: string,
    opened: boolean,
    failure: string,
    fatal: { code: number; error: string } | null,
    sessionEnded: boolean,
  ): Promise<void> {
    if (sessionEnded)
      return this.ended(code, reason, {
        reason: "session_ended",
        retry: false,
        minDelayMs: 0,
        advice: "The persona ended the call; do not reconnect.",
      });
    if (opened) return this.ended(code, fatal?.error || reason, closeVerdict(fatal?.code ?? code));
    // A refused upgrade is a 401 with no socket: `ws` names the status, a browser shows nothing, so ask.
    const status = Number(/\b([1-5]\d\d)\b/.exec(failure)?.[1] ?? 0);
    const refused = status === 401 || (await this.credentialRefused());
    const renewed =
      refused &&
      this.http.credentials.renewable &&
      (await this.http.credentials.refresh().then(
        () => true,
        () => false,
      ));
    if (gen !== this.generation) return; // closed meanwhile
    if (refused)
      return this.ended(code, reason, {
        reason: "credential_refused",
        retry: renewed,
        minDelayMs: 500,
        advice: "The box refused the credential at the upgrade (HTTP 401).",
      });
    return this.ended(code, reason, {
      reason: "connection_failed",
      retry: true,
      minDelayMs: 500,
      advice: failure || "The socket could not be opened.",
    });
  }

  private async credentialRefused(): Promise<boolean> {
    try {
      await this.http.send("GET", "/api/chat/status");
      return false;
    } catch (err) {
      return err instanceof AvatarApiError && err.status === 401;
    }
  }

  private ended(code: number, message: string, verdict: CloseVerdict, cause?: unknown): void {
    const text = message || verdict.advice;
    const status = verdict.reason === "credential_refused" ? 401 : 0;
    const error =
      verdict.reason === "client"
        ? undefined
        : new AvatarApiError(status, verdict.reason, text, { source: "close", closeCode: code, cause });
    this.onTransportClosed(
      error ?? new AvatarApiError(0, "session_closed", "The socket was closed by the application.", { source: "local", closeCode: code }),
    );
    const backoff = this.options.reconnect === false ? null : (this.options.reconnect ?? {});
    const canRetry = verdict.retry && !this.stopped && backoff !== null && this.attempts < (backoff.attempts ?? 8);
    if (canRetry) {
      const delayMs = backoffDelay(this.attempts, backoff, verdict.minDelayMs);
      this.attempts++;
      this.emitter.emit("disconnected", {
        code,
        reason: verdict.reason,
        message: text,
        willRetry: true,
        retryInMs: delayMs,
        error,
      } as never);
      this.emitter.emit("reconnecting", { attempt: this.attempts, delayMs, reason: verdict.reason } as never);
      this.retryTimer = setTimeout(() => ((this.retryTimer = null), void this.dial()), delayMs);
      return;
    }
    this.stopped = true;
    this.emitter.emit("disconnected", { code, reason: verdict.reason, message: text, willRetry: false, error } as never);
    this.giveUp(error ?? new AvatarApiError(0, "session_closed", "The socket was closed by the application.", { source: "local" }));
  }

  private giveUp(error: AvatarApiError): void {
    this.settleReady?.reject(error);
    this.settleReady = null;
    this.readyPromise = null;
  }
}

function parseFrame(data: unknown): { type: string; [k: string]: unknown } | null {
  if (typeof data !== "string") return null; // the box sends text frames only
  try {
    const v = JSON.parse(data) as unknown;
    return typeof v === "object" && v !== null && typeof (v as { type?: unknown }).type === "string" ? (v as { type: string }) : null;
  } catch {
    return null;
  }
}

export const now = () => (typeof performance !== "undefined" ? performance.now() : Date.now());
