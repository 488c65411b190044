// The call: `connect()` from the client library (one <video> for sound and picture, play()
// called, a refused autoplay answered by a "Turn the sound on" click), end, interrupt, and
// "speaking" read from the audio actually arriving (the inbound track's level), so typed turns
// and voice turns show the same state. Every offer reserves the camera slot (`camera: null`), so
// the page's Camera / Share screen toggles (camera.ts) start, swap and stop it mid-call.
import type { AvatarClient, LiveMedia, PreparedOffer } from "../../../../shared/client/index.ts";
import { byId } from "../dom.ts";
import { explain } from "../words.ts";
import type { CallState, EventLog, Latency } from "./panels.ts";

const SPEAKING_LEVEL = 0.01;
const QUIET_AFTER_MS = 700;
/** A voice onset the box did not answer with a barge-in within this long was not one. */
const BARGE_WATCH_MS = 6_000;
/** No video packet for this long: the box ended the call (idle window, maximum length, a restart). */
const SILENT_CALL_MS = 5_000;
/** The studio's tabs in this browser tell each other when one takes the box's single live session. */
const TABS_CHANNEL = "avatar-studio-calls";
export const MOVED_TO_ANOTHER_TAB =
  "This call moved to another tab of the studio: the box streams one live session at a time. Press Start call here to take it back.";

export interface CallHooks {
  state: CallState;
  log: EventLog;
  latency: Latency;
  /** A failure, in words, for the notices. */
  problem: (err: unknown) => void;
  /** Whether the answered call's box looks at the camera slot (false: it answered it inactive, perception off). */
  boxLooks?: (looks: boolean) => void;
}

export class Call {
  private media: LiveMedia | null = null;
  private poller: ReturnType<typeof setInterval> | null = null;
  private loudAt = 0;
  /** When the person's voice began over the speaking avatar (performance.now()), until the avatar went quiet. */
  private bargeOnset: number | null = null;
  /** The box said the person took the floor (`state {bargein: true}`) since that onset. */
  private bargeConfirmed = false;
  private starting: Promise<void> | null = null;
  /** The next call's offer, made while nobody waits (ICE gathering off the click's path). */
  private prepared: PreparedOffer | null = null;
  face: string | null = null;
  private readonly video = byId<HTMLVideoElement>("avatar-video");
  private readonly overlay = byId("video-overlay");
  private readonly soundOn = byId<HTMLButtonElement>("sound-on");

  private readonly tabId = Math.random().toString(36).slice(2);
  /** When another tab last said it is starting a call (the box's goodbye to this one may come first). */
  private otherTabStartingAt = -Infinity;
  private readonly tabs: BroadcastChannel | null = typeof BroadcastChannel === "function" ? new BroadcastChannel(TABS_CHANNEL) : null;

  constructor(
    private readonly client: AvatarClient,
    private readonly hooks: CallHooks,
    /** The person's camera or screen track to send now (null: the slot stays empty). */
    private readonly camera: () => MediaStreamTrack | null = () => null,
  ) {
    // Another tab started a call: the box has already closed this one, say so at once (not after the video stops).
    this.tabs?.addEventListener("message", (e: MessageEvent<{ starting?: string; started?: string }>) => {
      if (e.data?.starting && e.data.starting !== this.tabId) this.otherTabStartingAt = performance.now();
      if (!e.data?.started || e.data.started === this.tabId || !this.media) return;
      this.drop();
      hooks.log.add("Another tab of the studio started a call: this one ended.", "error");
      hooks.problem(new Error(MOVED_TO_ANOTHER_TAB));
    });
    this.soundOn.addEventListener("click", async () => {
      await this.media?.resumeMedia().catch((err) => hooks.problem(err));
      this.soundOn.hidden = true;
    });
  }

  /** Makes the next call's offer now (no-op without WebRTC; connect() says so when pressed). */
  prepare(): void {
    if (this.prepared) return;
    try {
      // With an empty camera slot: a toggle during the call fills it without reconnecting.
      this.prepared = this.client.prepareConnect({ camera: null });
    } catch {
      this.prepared = null;
    }
  }

  /** Closes the unused offer (the page is going away). */
  unprepare(): void {
    this.prepared?.close();
    this.prepared = null;
  }

  get live(): boolean {
    return this.media !== null;
  }

  /** Starts the call on `face` (an open one is replaced: the box keeps one live session). */
  start(face: string): Promise<void> {
    this.starting ??= this.open(face).finally(() => (this.starting = null));
    return this.starting;
  }

  /** Starts the call unless it is on (typed turns and the microphone need one). */
  async ensure(face: string): Promise<void> {
    if (this.starting) return this.starting;
    if (!this.media) await this.start(face);
  }

  private async open(face: string): Promise<void> {
    this.drop();
    const { state, log, latency } = this.hooks;
    state.set({ connection: "connecting" });
    this.overlay.hidden = false;
    this.overlay.querySelector("p")!.textContent = "Connecting to the avatar…";
    log.add(`Starting the call with ${face}…`);
    const sentAt = performance.now();
    try {
      const prepared = this.prepared;
      this.prepared = null;
      this.tabs?.postMessage({ starting: this.tabId });
      const sent = this.camera();
      const media = await this.client.connect({ video: this.video, avatar: face, prepared, camera: sent });
      this.media = media;
      // A toggle while the call was being answered: the slot catches up.
      if (this.camera() !== sent) await media.setCamera(this.camera());
      const slot = media.pc.getTransceivers().find((t) => t.sender === media.cameraSender);
      this.hooks.boxLooks?.(slot?.currentDirection !== "inactive");
      this.face = media.answer?.avatar ?? face;
      latency.ms("connect", performance.now() - sentAt);
      this.tabs?.postMessage({ started: this.tabId });
      log.add(
        `Call answered: avatar ${this.face}${media.answer?.idle_stand_in ? " (another face's idle clip stands in while this one is prepared)" : ""}.`,
      );
      media.on({
        playing: ({ muted }) => {
          this.overlay.hidden = true;
          log.add(muted ? "Video plays without sound (press “Turn the sound on”)." : "Video and sound play.");
        },
        autoplay_blocked: ({ videoPlaying }) => {
          this.soundOn.hidden = false;
          if (videoPlaying) this.overlay.hidden = true;
          log.add("The browser held the sound back until a click: press “Turn the sound on”.", "error");
        },
        timing: (t) => {
          if (t.mark !== "first_frame") return;
          latency.ms("first_frame", t.ms);
          log.add(`First video frame decoded after ${t.ms} ms.`);
        },
        connection_state: ({ state: s }) => {
          log.add(`Connection ${s}.`, s === "failed" ? "error" : "info");
          if (s === "failed" && this.media === media) {
            this.drop();
            this.hooks.problem(
              new Error("The live connection failed (the network between this browser and the box). Press Start call to try again."),
            );
          } else if (s === "closed" && this.media === media) {
            // The box said goodbye: another call took its place (often this studio's other tab), or the session ended.
            const moved = performance.now() - this.otherTabStartingAt < 15_000;
            this.drop();
            if (moved) log.add("Another tab of the studio started a call: this one ended.", "error");
            this.hooks.problem(
              new Error(
                moved
                  ? MOVED_TO_ANOTHER_TAB
                  : "The box ended this call (another call took its place, or the session ended). Press Start call to go live again.",
              ),
            );
          }
        },
      });
      state.set({ connection: "on" });
      this.watchAudio(media);
    } catch (err) {
      this.drop();
      log.add(`The call did not start: ${explain(err).text}`, "error");
      throw err;
    }
  }

  /** Puts the person's camera or screen in the open call's slot (nothing to do without a call: the next connect sends it). */
  async setCamera(track: MediaStreamTrack | null): Promise<void> {
    await this.media?.setCamera(track);
  }

  async end(): Promise<void> {
    const media = this.media;
    if (!media) return;
    this.drop();
    await media.disconnect().catch((err) => this.hooks.log.add(`Ending the call on the box failed: ${explain(err).text}`, "error"));
    this.hooks.log.add("Call ended.");
  }

  async interrupt(): Promise<void> {
    await this.client.interrupt();
    this.hooks.state.set({ thinking: false, audioSpeaking: false });
    this.hooks.log.add("Interrupted: the avatar stops at the next frame.");
  }

  /**
   * The microphone heard the person start speaking: if the box then takes the turn from the
   * avatar (bargedIn), the time until its audio arriving here went quiet is the barge-in latency
   * as the person lives it.
   */
  voiceOnset(at = performance.now()): void {
    if (!this.media) return;
    this.bargeOnset = at;
    this.bargeConfirmed = false;
  }

  /** The box interrupted the avatar for the person: the figure is taken at the first quiet moment after this. */
  bargedIn(): void {
    if (this.bargeOnset !== null) this.bargeConfirmed = true;
  }

  /** Forgets the media here (the box notices the closed connection). */
  drop(): void {
    if (this.poller) clearInterval(this.poller);
    this.poller = null;
    this.media?.close();
    this.media = null;
    if (document.visibilityState !== "hidden") this.prepare();
    this.soundOn.hidden = true;
    this.overlay.hidden = false;
    this.overlay.querySelector("p")!.textContent = "Click here or press Start call to see and hear the avatar.";
    this.hooks.state.set({ connection: "off" });
  }

  /**
   * Speaking = the arriving audio is above silence; quiet for 700 ms = done. A call whose video
   * stopped arriving was ended by the box: said in words instead of a frozen picture.
   */
  private watchAudio(media: LiveMedia): void {
    let packets = -1;
    let packetsAt = performance.now();
    let energy: { total: number; seconds: number } | null = null;
    this.poller = setInterval(async () => {
      const stats = await media.pc.getStats().catch(() => null);
      if (this.media !== media) return;
      let level = 0;
      let video = 0;
      type Inbound = {
        type?: string;
        kind?: string;
        audioLevel?: number;
        totalAudioEnergy?: number;
        totalSamplesDuration?: number;
        packetsReceived?: number;
      };
      stats?.forEach((s: Inbound) => {
        if (s.type !== "inbound-rtp") return;
        if (s.kind === "video") video += s.packetsReceived ?? 0;
        if (s.kind !== "audio") return;
        // The mean level over this poll's audio (energy difference), not the smoothed audioLevel.
        if (typeof s.totalAudioEnergy === "number" && typeof s.totalSamplesDuration === "number") {
          const [e, d] = energy ? [s.totalAudioEnergy - energy.total, s.totalSamplesDuration - energy.seconds] : [0, 0];
          energy = { total: s.totalAudioEnergy, seconds: s.totalSamplesDuration };
          level = d > 0 ? Math.sqrt(Math.max(0, e) / d) : 0;
        } else if (typeof s.audioLevel === "number") level = s.audioLevel;
      });
      const now = performance.now();
      if (video !== packets) [packets, packetsAt] = [video, now];
      else if (packets > 0 && now - packetsAt > SILENT_CALL_MS) {
        this.drop();
        this.hooks.log.add("The video stopped arriving: the box ended the call.", "error");
        this.hooks.problem(
          new Error(
            "The box ended the call (it sat idle too long, reached its maximum length, or restarted). Press Start call to begin again.",
          ),
        );
        return;
      }
      if (level > SPEAKING_LEVEL) this.loudAt = now;
      else if (this.bargeOnset !== null && this.bargeConfirmed) {
        // The first quiet stretch after the person's voice began: the avatar stopped (or ducked) for them.
        const ms = Math.max(0, this.loudAt - this.bargeOnset);
        this.hooks.latency.ms("barge_in", ms);
        this.hooks.log.add(`Barge-in: the avatar went quiet ${Math.round(ms)} ms after your voice began.`);
        this.bargeOnset = null;
      }
      if (this.bargeOnset !== null && now - this.bargeOnset > BARGE_WATCH_MS) this.bargeOnset = null; // it talked on: no barge-in
      const speaking = now - this.loudAt < QUIET_AFTER_MS;
      if (speaking !== this.hooks.state.audioSpeaking) {
        this.hooks.state.set({ audioSpeaking: speaking, ...(speaking ? { thinking: false } : {}) });
      }
    }, 100);
  }
}
