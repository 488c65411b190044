// The typed box: Chat (`POST /api/chat` read as NDJSON: clauses as captions, tool frames as they
// happen and answered by the page's tool handlers, the closing `reply` authoritative) or Talk
// (`POST /api/talk`, spoken as written). No silent failure: a send that is refused or fails puts
// the person's words back in the box, marks their caption not sent, and says why right under the
// box (aria-live), with the way out (switch to Talk; how to set a model).
import { AvatarApiError, type AvatarClient, type ChatStream } from "../../../../shared/client/index.ts";
import { byId, h } from "../dom.ts";
import { explain } from "../words.ts";
import type { Call } from "./call.ts";
import { NO_MODEL, setModelWords } from "./model-words.ts";
import type { ModeChoice } from "./modes.ts";
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
  modes: ModeChoice;
  /** False when the box is known to have no language model (readiness). */
  chatPossible: () => boolean;
}

/** How long after a turn's answer "thinking" may wait for the first sound. */
const SETTLE_MS = 2_500;

export class TypedTurns {
  private stream: ChatStream | null = null;
  private turns = 0;
  private readonly form = byId<HTMLFormElement>("turn-form");
  private readonly text = byId<HTMLTextAreaElement>("turn-text");
  private readonly error = byId("turn-error");

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

  /** Stops reading a chat reply (the box ends the turn). */
  abort(): void {
    this.stream?.abort();
    this.stream = null;
  }

  private async send(): Promise<void> {
    const text = this.text.value.trim();
    if (!text) {
      this.refuse([explain(new AvatarApiError(0, "blank_text", "Type something first.", { source: "local" })).text]);
      this.text.focus();
      return;
    }
    const mode = this.d.modes.get();
    const { call, pickers, log } = this.d;
    if (mode === "chat" && !this.d.chatPossible()) {
      log.add("Chat not sent: the box has no language model.", "error");
      this.refuse(this.noModel(), true, setModelWords());
      return;
    }
    this.refuse([]);
    try {
      await call.ensure(pickers.face());
    } catch (err) {
      this.failed(err, mode);
      return;
    }
    this.text.value = "";
    const line = this.d.captions.you(text);
    const turn = ++this.turns;
    this.d.state.set({ thinking: true });
    try {
      if (mode === "talk") await this.talk(text);
      else await this.chat(text);
    } catch (err) {
      log.add(`${mode === "talk" ? "Talk" : "Chat"} failed: ${(err as Error).message}`, "error");
      this.d.state.set({ thinking: false });
      // The words come back to the box (unless something new was typed meanwhile) to send again.
      if (!this.text.value.trim()) this.text.value = text;
      this.d.captions.notSent(line);
      this.failed(err, mode);
      return;
    }
    // Queued words start playing within moments; if none are heard, stop showing "thinking".
    setTimeout(() => turn === this.turns && this.d.state.set({ thinking: false }), SETTLE_MS);
  }

  /** Why a send did not go through, by the box: signing in and a stopped box also reach the notices (their buttons). */
  private failed(err: unknown, mode: "chat" | "talk"): void {
    const p = explain(err);
    if (p.kind === "signed_out" || p.kind === "box_stopped") this.d.problem(err);
    if (p.kind === "chat_not_configured") return this.refuse(this.noModel(), true, setModelWords());
    this.refuse([`Not sent: ${p.text}`], mode === "chat");
  }

  private noModel(): string[] {
    return [`Not sent: ${NO_MODEL}`];
  }

  /**
   * The reason beside the box (empty: none), with a way to Talk instead where Chat failed, and
   * `howTo` (how to set a model) folded under a toggle so the face keeps its room on a phone.
   */
  private refuse(words: (Node | string)[], offerTalk = false, howTo: Node[] = []): void {
    if (words.length === 0) return this.error.replaceChildren();
    const reason = h("p", {});
    reason.append(...words);
    const actions = h("div", { class: "notice-actions" });
    if (howTo.length) {
      const steps = h("p", {});
      steps.append(...howTo);
      actions.append(h("details", { class: "how-to" }, h("summary", {}, "How to give the box a model"), steps));
    }
    if (offerTalk) {
      const toTalk = h("button", { type: "button", class: "primary" }, "Switch to Talk");
      toTalk.addEventListener("click", () => {
        this.d.modes.pickTalk();
        this.error.replaceChildren();
        this.text.focus();
      });
      actions.prepend(toTalk);
    }
    this.error.replaceChildren(reason, ...(actions.hasChildNodes() ? [actions] : []));
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
