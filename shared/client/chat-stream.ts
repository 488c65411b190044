// Implements: POST /api/chat streaming (NDJSON): frames cut from a buffer, `reply` authoritative
// and last, `error` last on a turn that produced nothing; custom tool calls of the typed turn
// answered through POST /api/chat/tool_result with the same credential. Closing the stream ends
// the turn on the box; a handler still running then fails `session_closed` locally.
import { AvatarApiError } from "./errors.ts";
import { Emitter, type Handlers } from "./events.ts";
import type { HttpCore } from "./http.ts";
import { readNdjson } from "./ndjson.ts";
import { now, type SocketLocalEvents } from "./socket-base.ts";
import { ToolDispatcher, type ToolRegistry } from "./tools.ts";
import type { ChatRequest } from "./types.ts";
import type { ChatFrames, ChatReplyFrame, ToolCallFrame } from "./wire.ts";

export type ChatFrame = { type: string; [field: string]: unknown };
export type ChatStreamEvents = ChatFrames & Pick<SocketLocalEvents, "frame" | "tool_handler_error" | "timing">;

const KNOWN = new Set([
  "reply_chunk",
  "tool",
  "reply",
  "error",
  "tool_call_started",
  "tool_call",
  "tool_call_completed",
  "tool_call_failed",
]);

export class ChatStream implements AsyncIterable<ChatFrame> {
  /** Resolves with the closing `reply` frame; rejects with AvatarApiError (a refusal, an `error` frame). */
  readonly reply: Promise<ChatReplyFrame>;
  private readonly emitter = new Emitter<ChatStreamEvents>();
  private readonly abortController = new AbortController();
  private readonly queue: ChatFrame[] = [];
  private wake: (() => void) | null = null;
  private finished = false;

  constructor(http: HttpCore, tools: ToolRegistry, body: ChatRequest, opts: { signal?: AbortSignal } = {}) {
    opts.signal?.addEventListener("abort", () => this.abort(), { once: true });
    const dispatcher = new ToolDispatcher(
      tools,
      ({ type: _type, ...result }) => http.json("POST", "/api/chat/tool_result", { json: result }),
      { failed: (f) => this.deliver(f), handlerError: (info) => this.emitter.emit("tool_handler_error", info) },
    );
    this.reply = this.run(http, body, dispatcher).finally(() => {
      dispatcher.close();
      this.finished = true;
      this.wake?.();
    });
    this.reply.catch(() => undefined);
  }

  on(map: Handlers<ChatStreamEvents>): () => void {
    return this.emitter.on(map);
  }

  /** Stops reading: the box ends the turn and fails its waiting calls. */
  abort(): void {
    this.abortController.abort();
  }

  async *[Symbol.asyncIterator](): AsyncIterator<ChatFrame> {
    for (;;) {
      if (this.queue.length) yield this.queue.shift()!;
      else if (this.finished) return;
      else await new Promise<void>((r) => (this.wake = r));
    }
  }

  private async run(http: HttpCore, body: ChatRequest, dispatcher: ToolDispatcher): Promise<ChatReplyFrame> {
    const sentAt = now();
    let firstChunk = true;
    try {
      const res = await http.send("POST", "/api/chat", {
        json: { ...body, stream: true },
        headers: { accept: "application/x-ndjson" },
        signal: this.abortController.signal,
      });
      // A proxy that buffered the stream into one body still answers the same reply.
      if (!(res.headers.get("content-type") ?? "").includes("ndjson")) {
        const frame = { type: "reply", ...((await res.json()) as object) } as ChatReplyFrame;
        this.deliver(frame);
        return frame;
      }
      for await (const raw of readNdjson(res.body!)) {
        if (typeof raw !== "object" || raw === null || typeof (raw as ChatFrame).type !== "string") continue;
        const frame = raw as ChatFrame;
        if (frame.type === "reply_chunk" && firstChunk) {
          firstChunk = false;
          this.emitter.emit("timing", { mark: "first_chunk", ms: Math.round(now() - sentAt) });
        }
        if (frame.type === "tool_call") dispatcher.onCall(frame as unknown as ToolCallFrame);
        if (frame.type === "tool_call_completed" || frame.type === "tool_call_failed") dispatcher.onEnded(String(frame.call_id));
        this.deliver(frame);
        if (frame.type === "reply") return frame as unknown as ChatReplyFrame;
        if (frame.type === "error") {
          throw new AvatarApiError(0, "turn_failed", String(frame.error ?? "The turn failed."), {
            source: "frame",
            body: frame,
            interrupted: frame.interrupted === true,
          });
        }
      }
    } catch (err) {
      if (err instanceof AvatarApiError) throw err;
      if (this.abortController.signal.aborted)
        throw new AvatarApiError(0, "aborted", "The turn's stream was closed by the application.", { source: "local", cause: err });
      throw new AvatarApiError(0, "stream_failed", `The turn's stream broke: ${(err as Error)?.message ?? String(err)}`, {
        source: "local",
        cause: err,
      });
    }
    throw new AvatarApiError(0, "stream_ended", "The turn's stream ended without a reply or an error frame.", { source: "local" });
  }

  private deliver(frame: ChatFrame | { type: string }): void {
    this.emitter.emit("frame", frame as ChatFrame);
    if (KNOWN.has(frame.type)) this.emitter.emit(frame.type as never, frame as never);
    this.queue.push(frame as ChatFrame);
    this.wake?.();
    this.wake = null;
  }
}
