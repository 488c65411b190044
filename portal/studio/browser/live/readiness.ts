// Readiness in words (`GET /api/chat/status`, polled), and the box being stopped: said plainly,
// with a start button for administrators (`/auth/gpu/*`), polled until the box answers again.
// A box with no language model is told to the typed box (Chat unavailable, by the modes), not as
// a banner over the call.
import type { AvatarClient, Readiness } from "../../../../shared/client/index.ts";
import { h, type Notices } from "../dom.ts";
import { portalJson } from "../portal-api.ts";
import { explain, HOW_TO_SET_A_VOICE } from "../words.ts";
import type { EventLog } from "./panels.ts";

const EVERY_MS = 15_000;
const SOON_MS = 2_500;

export class ReadinessWatch {
  private timer: ReturnType<typeof setTimeout> | null = null;
  private boxDown = false;
  last: Readiness | null = null;

  constructor(
    private readonly client: AvatarClient,
    private readonly list: HTMLElement,
    private readonly notices: Notices,
    private readonly log: EventLog,
    private readonly admin: boolean,
    /** The box answers again after being down (reload the pickers). */
    private readonly onBoxUp: () => void,
    /** A problem that is not about the box being stopped. */
    private readonly problem: (err: unknown) => void,
    private readonly voiceNotice: (notice: string) => void,
    /** Whether Chat can answer: false only when the box has no language model at all. */
    private readonly chatPossible: (possible: boolean) => void,
  ) {}

  /** Checks now, then keeps checking (sooner while something is starting or down). */
  async check(): Promise<void> {
    if (this.timer) clearTimeout(this.timer);
    let next = EVERY_MS;
    try {
      const r = await this.client.chatStatus();
      if (this.boxDown) {
        this.boxDown = false;
        this.notices.clear("box");
        this.log.add("The box answers again.");
        this.onBoxUp();
      }
      this.render(r);
      if (r.starting) next = SOON_MS;
    } catch (err) {
      if (!this.boxStopped(err)) this.problem(err);
      next = SOON_MS;
    }
    if (document.visibilityState === "hidden") next = Math.max(next, EVERY_MS);
    this.timer = setTimeout(() => void this.check(), next);
  }

  /** Says that the box is stopped when `err` means it; true when it did. */
  boxStopped(err: unknown): boolean {
    const p = explain(err);
    if (p.kind !== "box_stopped") return false;
    if (!this.boxDown) this.log.add(p.text, "error");
    this.boxDown = true;
    this.list.replaceChildren(
      h("li", { class: "down" }, h("span", { class: "mark", "aria-hidden": "true" }, "✗"), h("span", {}, "The box is not running.")),
    );
    if (this.admin) {
      this.notices.set("box", "error", `${p.text} Start it here (you are an administrator); the page picks it up when it answers.`, [
        { label: "Start the box", run: () => this.startBox() },
      ]);
    } else {
      this.notices.set("box", "error", `${p.text} Ask an administrator of this portal to start it; this page picks it up when it answers.`);
    }
    return true;
  }

  private async startBox(): Promise<void> {
    this.notices.set("box", "info", "Starting the box… this page picks it up when it answers.");
    try {
      const { gpu } = await portalJson<{ gpu: { state: string } }>("GET", "/auth/gpu/status");
      if (gpu.state === "stopped") await portalJson("POST", "/auth/gpu/start");
      else if (gpu.state === "none" || gpu.state === "terminated") await portalJson("POST", "/auth/gpu/launch", {});
      this.log.add(`Asked the portal to start the box (it was ${gpu.state}).`);
    } catch (err) {
      this.notices.set("box", "error", `The box could not be started: ${explain(err).text}`, [
        { label: "Try again", run: () => this.startBox() },
      ]);
      return;
    }
    await this.check();
  }

  private render(r: Readiness): void {
    this.last = r;
    const row = (ok: boolean | "wait", text: string) =>
      h(
        "li",
        { class: ok === "wait" ? "wait" : ok ? "up" : "down" },
        h("span", { class: "mark", "aria-hidden": "true" }, ok === "wait" ? "…" : ok ? "✓" : "✗"),
        h("span", {}, text),
      );
    const state = (s: string, detail: string) => (s === "starting" ? "checking…" : `${s.replace(/_/g, " ")}${detail ? `: ${detail}` : ""}`);
    const account = r.voice_origin === "user" ? "your own account" : "the box's own engine";
    this.list.replaceChildren(
      row(
        r.llm_state === "starting" ? "wait" : r.llm,
        r.llm ? "Language model: ready (Chat works)." : `Language model: ${state(r.llm_state, r.llm_detail)}.`,
      ),
      row(
        r.tts_state === "starting" ? "wait" : r.tts,
        r.tts ? `Voice: ready (${r.voice_provider}, ${account}).` : `Voice: ${state(r.tts_state, r.tts_detail)}.`,
      ),
      row(
        r.transcribe,
        r.transcribe
          ? "Speech recognition: on (the microphone works)."
          : "Speech recognition: off, so the microphone cannot be used (BOX_ASR on the box).",
      ),
    );
    this.chatPossible(r.llm_state !== "not_configured");
    if (r.llm_state === "not_configured") this.notices.clear("chat");
    else if (!r.llm && r.llm_state !== "starting")
      this.notices.set("chat", "error", `Chat is not working now: ${r.reason} The box checks again by itself.`);
    else this.notices.clear("chat");
    if (r.tts_state === "not_configured") this.notices.set("tts", "error", HOW_TO_SET_A_VOICE);
    else if (!r.tts && r.tts_state !== "starting")
      this.notices.set("tts", "error", `Nothing can be spoken now: ${r.reason} The box checks again by itself.`);
    else this.notices.clear("tts");
    if (r.starting)
      this.notices.set("starting", "info", "The box is still checking its model and voice; this page asks again in a moment.");
    else this.notices.clear("starting");
    this.voiceNotice(r.voice_notice);
  }
}
