// Implements: what the Voices page's parts (keys, engine choice, samples, "Your voice") share: the
// handle through which they read the page's state and ask it to show a change, and how a result is
// said next to what it is about.
import type { AvatarClient } from "../../../shared/client/index.ts";
import type { VoiceKeyEntry, VoiceSettings } from "../../voice-keys/schema.ts";
import { say } from "./dom.ts";
import type { CardState, Live } from "./voices-engine-state.ts";

export interface VoicesPage {
  readonly client: AvatarClient;
  /** What is under way (`key:<id>`, `sample:<id>`, `engine`): one at a time of each. */
  readonly busy: Set<string>;
  /** The person's saved keys and engine choice; null until the portal answered. */
  settings(): VoiceSettings | null;
  /** What the box says about its engines now. */
  live(): Live;
  /** The saved key of engine `id`, if any. */
  keyOf(id: string): VoiceKeyEntry | null;
  /** One part of engine `id`'s card (its `data-role`). */
  part<T extends HTMLElement = HTMLElement>(id: string, role: string): T;
  /** A failure in words; null when the person was sent to sign in (nothing to say here). */
  words(err: unknown): string | null;
  /** After a change: new settings from the portal's answer, then the box asked again. */
  changed(voice: VoiceSettings): void;
  /** Everything from the settings and the box's word; true when the box has yet to pick up the choice. */
  render(): boolean;
  /** One engine's card; its state as shown. */
  renderCard(id: string): CardState;
}

/** A result next to what it is about; a failure is also brought into view (it may be below the fold). */
export function tell(el: HTMLElement, text: string, tone: "ok" | "error" | "" = ""): void {
  say(el, text, tone);
  if (tone === "error") el.scrollIntoView({ block: "nearest" });
}
