// The live page's read-outs: the call state in words that say what is true (not connected, on
// with the mic off, listening, hearing you, thinking, speaking, paused), captions (a line the box
// never took is marked not sent), the latency panel and the event log. Each renders from calls;
// none talks to the box.
import { clock, h } from "../dom.ts";

export type Connection = "off" | "connecting" | "on";
/**
 * `listening` is the call waiting for the next turn, typed or spoken (`data-state`); whether the
 * microphone hears is `data-mic`, and the words say which.
 */
export type ShownState = "off" | "connecting" | "listening" | "hearing" | "thinking" | "speaking" | "paused";

const STATE_WORDS: Record<ShownState, string> = {
  off: "Not connected",
  connecting: "Connecting…",
  listening: "Listening",
  hearing: "Hearing you",
  thinking: "Thinking…",
  speaking: "Speaking",
  paused: "Paused",
};

const words = (shown: ShownState, micOn: boolean) => (shown === "listening" && !micOn ? "On · mic off" : STATE_WORDS[shown]);

/** One state from several sources: the call, a turn in flight, the audio heard, the voice socket. */
export class CallState {
  connection: Connection = "off";
  thinking = false;
  audioSpeaking = false;
  socketSpeaking = false;
  paused = false;
  /** The microphone is open and sending (open mic, or the hold button held). */
  micOn = false;
  /** The microphone hears a voice now (its level, or words being recognised). */
  hearing = false;
  private last: ShownState | null = null;
  private lastWords = "";

  constructor(
    private readonly el: HTMLElement,
    private readonly onChange: (s: ShownState) => void = () => {},
  ) {}

  set(
    patch: Partial<Pick<CallState, "connection" | "thinking" | "audioSpeaking" | "socketSpeaking" | "paused" | "micOn" | "hearing">>,
  ): void {
    Object.assign(this, patch);
    if (this.connection !== "on")
      Object.assign(this, { thinking: false, audioSpeaking: false, socketSpeaking: false, paused: false, hearing: false });
    if (!this.micOn) this.hearing = false;
    const shown: ShownState =
      this.connection === "off"
        ? "off"
        : this.connection === "connecting"
          ? "connecting"
          : this.paused
            ? "paused"
            : this.audioSpeaking || this.socketSpeaking
              ? "speaking"
              : this.hearing
                ? "hearing"
                : this.thinking
                  ? "thinking"
                  : "listening";
    const text = words(shown, this.micOn);
    this.el.dataset.mic = this.micOn ? "on" : "off";
    if (text !== this.lastWords) this.el.querySelector(".state-text")!.textContent = this.lastWords = text;
    if (shown === this.last) return;
    this.last = shown;
    this.el.dataset.state = shown;
    this.onChange(shown);
  }

  get shown(): ShownState {
    return this.last ?? "off";
  }
}

/** What was said, as it is said: the person's words, the avatar's clauses, tool and action chips. */
export class Captions {
  private avatarLine: HTMLElement | null = null;
  constructor(
    private readonly box: HTMLElement,
    private readonly partialEl: HTMLElement,
  ) {}

  /** The person's line; the element is returned so a turn the box refused can be marked. */
  you(text: string): HTMLElement {
    this.clearPartial();
    this.avatarLine = null;
    return this.line("You", text, "you");
  }

  /** A line of the person's that never reached the avatar (the reason shows by the typed box). */
  notSent(line: HTMLElement): void {
    line.classList.add("not-sent");
    line.append(" ", h("span", { class: "not-sent-mark" }, "(not sent)"));
  }

  /** A clause of the avatar's reply (joined to the reply's line). */
  avatarChunk(text: string): void {
    if (!this.avatarLine) this.avatarLine = this.line("Avatar", "", "avatar");
    const words = this.avatarLine.querySelector(".words")!;
    words.textContent = `${words.textContent ? `${words.textContent} ` : ""}${text.trim()}`;
    this.scroll();
  }

  /** The authoritative reply closes the line (it replaces the clauses). */
  avatarDone(text: string): void {
    if (text) {
      if (!this.avatarLine) this.avatarLine = this.line("Avatar", "", "avatar");
      this.avatarLine.querySelector(".words")!.textContent = text;
    }
    this.avatarLine = null;
  }

  chip(text: string, failed = false): void {
    this.box.querySelector(".placeholder")?.remove();
    this.box.append(h("p", {}, h("span", { class: `chip${failed ? " failed" : ""}` }, text)));
    this.scroll();
  }

  partial(text: string): void {
    this.partialEl.hidden = !text;
    this.partialEl.textContent = text ? `Hearing: ${text}` : "";
  }

  clearPartial(): void {
    this.partial("");
  }

  private line(who: string, text: string, cls: string): HTMLElement {
    this.box.querySelector(".placeholder")?.remove();
    const p = h("p", { class: cls }, h("span", { class: "speaker" }, `${who}:`), " ", h("span", { class: "words" }, text));
    this.box.append(p);
    while (this.box.children.length > 60) this.box.firstElementChild!.remove();
    this.scroll();
    return p;
  }

  private scroll(): void {
    this.box.scrollTop = this.box.scrollHeight;
  }
}

const LATENCY_ROWS: [string, string][] = [
  ["credential", "Box credential valid until"],
  ["connect", "Start call → answer"],
  ["first_frame", "Start call → first video frame"],
  ["chat_first", "Chat: send → first words"],
  ["chat_done", "Chat: send → whole reply"],
  ["talk", "Talk: send → queued to speak"],
  ["voice_turn", "Voice: end of speech → first audio"],
  ["barge_in", "Barge-in: your voice → avatar quiet"],
  ["voice_ready", "Microphone socket → listening"],
];

export class Latency {
  private readonly cells = new Map<string, HTMLElement>();
  constructor(dl: HTMLElement) {
    for (const [key, label] of LATENCY_ROWS) {
      const dd = h("dd", { "data-latency": key }, "–");
      dl.append(h("dt", {}, label), dd);
      this.cells.set(key, dd);
    }
  }

  ms(key: string, ms: number): void {
    this.text(key, `${Math.round(ms)} ms`);
  }

  text(key: string, text: string): void {
    const cell = this.cells.get(key);
    if (cell) cell.textContent = text;
  }
}

/** Newest first, at most 200 lines; errors marked. */
export class EventLog {
  constructor(private readonly list: HTMLElement) {}

  add(text: string, level: "info" | "error" = "info"): void {
    const now = new Date();
    this.list.prepend(
      h("li", { class: level }, h("time", { datetime: now.toISOString() }, clock(now)), h("span", { class: "text" }, text)),
    );
    while (this.list.children.length > 200) this.list.lastElementChild!.remove();
  }

  clear(): void {
    this.list.replaceChildren();
  }
}
