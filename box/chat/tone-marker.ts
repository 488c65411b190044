// Implements: the delivery tone from the model's structured output. With emotion_responsive on,
// the model is asked to open its reply with `[tone:<name>]`; this strips the marker from the
// stream and yields the tone (neutral when absent or not in the vocabulary).
import { DEFAULT_TONE, TONES, isTone, type Tone } from "../../shared/wire/tones.ts";

export const TONE_INSTRUCTION = `Begin every reply with a delivery tone tag, exactly one of ${TONES.map((t) => `[tone:${t}]`).join(", ")}, then the words to say. The tag is not spoken.`;

const MARKER = /^\s*\[tone:\s*([a-zA-Z_-]{1,24})\s*\]\s*/;

export class ToneMarker {
  private buf = "";
  private decided = false;
  tone: Tone = DEFAULT_TONE;

  /** Feeds a delta; returns the text to pass on (empty while the opening is undecided). */
  push(delta: string): string {
    if (this.decided) return delta;
    this.buf += delta;
    const m = MARKER.exec(this.buf);
    if (m) {
      const name = m[1].toLowerCase();
      if (isTone(name)) this.tone = name;
      return this.decide(this.buf.slice(m[0].length));
    }
    const t = this.buf.trimStart();
    // Still possibly a marker: wait for more text (a marker is short).
    if (t === "" || ("[tone:".startsWith(t.slice(0, 6).toLowerCase()) && !t.includes("]") && t.length < 40)) return "";
    return this.decide(this.buf);
  }

  /** End of the reply: whatever was held back. */
  flush(): string {
    // Nothing seen yet (a round that only called tools): the words, and their marker, come later.
    if (this.decided || this.buf.trim() === "") return "";
    return this.decide(this.buf.replace(/^\s*\[tone:[^\]]*$/, ""));
  }

  private decide(rest: string): string {
    this.decided = true;
    this.buf = "";
    return rest;
  }
}
