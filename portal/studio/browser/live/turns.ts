// The typed box: Chat (`POST /api/chat` read as NDJSON: clauses as captions, tool frames as they
// happen and answered by the page's tool handlers, the closing `reply` authoritative) or Talk
// (`POST /api/talk`, spoken as written).
import { AvatarApiError, type AvatarClient, type ChatStream } from "../../../../shared/client/index.ts";
import { byId } from "../dom.ts";
import type { Call } from "./call.ts";
import type { Captions, CallState, EventLog, Latency } from "./panels.ts";
import type { Pickers } from "./pickers.ts";
import type { ToolView } from "./tools.ts";

export interface TurnDeps {
  client: AvatarClient;
  call: Call;
  pickers: Pickers;
  captions: Captions;
  state: CallState;
  log: EventLog;
  latency: Latency;
  problem: (err: unknown) => void;
  voiceNotice: (notice: string) => void;
  tools: ToolView;
}

/** How long after a turn's answer "thinking" may wait for the first sound. */
const SETTLE_MS = 2_500;

export class TypedTurns {
  private stream: ChatStream | null = null;
  private turns = 0;
  private readonly form = byId<HTMLFormElement>("turn-form");
  private readonly text = byId<HTMLTextAreaElement>("turn-text");

  constructor(private readonly d: TurnDeps) {
    this.form.addEventListener("submit", (e) => {
      e.preventDefault();
      void this.send();
    });
    this.text.addEventListener("keydown", (e) => {
      if (e.key === "Enter" && !e.shiftKey && !e.isComposing) {
        e.preventDefault();
        this.form.requestSubmit();
      }
    });
  }

  private mode(): "chat" | "talk" {
    return (this.form.querySelector<HTMLInputElement>("input[name=mode]:checked")?.value as "chat" | "talk") ?? "chat";
  }

  /** Stops reading a chat reply (the box ends the turn). */
  abort(): void {
    this.stream?.abort();
    this.stream = null;
  }

  private async send(): Promise<void> {
    const text = this.text.value.trim();
    if (!text) {
      this.d.problem(new AvatarApiError(0, "blank_text", "Type something first.", { source: "local" }));
      this.text.focus();
      return;
    }
    const mode = this.mode();
    const { call, pickers, log } = this.d;
    try {
      await call.ensure(pickers.face());
    } catch (err) {
      this.d.problem(err);
      return;
    }
    this.text.value = "";
    this.d.captions.you(text);
    const turn = ++this.turns;
    this.d.state.set({ thinking: true });
    try {
      if (mode === "talk") await this.talk(text);
      else await this.chat(text);
    } catch (err) {
      log.add(`${mode === "talk" ? "Talk" : "Chat"} failed: ${(err as Error).message}`, "error");
      this.d.problem(err);
      this.d.state.set({ thinking: false });
      return;
    }
    // Queued words start playing within moments; if none are heard, stop showing "thinking".
    setTimeout(() => turn === this.turns && this.d.state.set({ thinking: false }), SETTLE_MS);
  }

  private async talk(text: string): Promise<void> {
    const sentAt = performance.now();
    this.d.log.add(`Talk sent (${text.length} characters).`);
    const answer = await this.d.client.talk({ text, voice: this.d.pickers.talkVoice(), tone: this.d.pickers.tone() });
    this.d.latency.ms("talk", performance.now() - sentAt);
    this.d.captions.avatarDone(answer.spoken);
    this.d.log.add("Talk queued: the avatar says it as written.");
  }

  private async chat(message: string): Promise<void> {
    const { captions, log, latency } = this.d;
    this.abort();
    const sentAt = performance.now();
    log.add("Chat sent; waiting for the model.");
    const stream = this.d.client.chatStream({ message, ...this.d.pickers.voice() });
    this.stream = stream;
    stream.on({
      timing: (t) => t.mark === "first_chunk" && latency.ms("chat_first", t.ms),
      // "Thinking" lasts until the words are heard (the call's audio ends it), not until they are written.
      reply_chunk: (f) => captions.avatarChunk(f.text),
      // Tool frames as they happen; the calls are answered from the page's handlers (live/tools.ts).
      ...this.d.tools.frames(),
      reply: (f) => {
        captions.avatarDone(f.reply);
        latency.ms("chat_done", performance.now() - sentAt);
        log.add(`Reply complete (tone ${f.tone}${"tools" in f && f.tools.length ? `; tools: ${f.tools.join(", ")}` : ""}).`);
        this.d.voiceNotice(f.voice_notice);
      },
      error: (f) => log.add(`The reply failed: ${f.error}${f.interrupted ? " (interrupted)" : ""}`, "error"),
    });
    try {
      await stream.reply;
    } finally {
      if (this.stream === stream) this.stream = null;
      captions.avatarDone("");
    }
  }
}
