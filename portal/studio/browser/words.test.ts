// What went wrong, in words: the studio's one mapping from the client library's error to a
// sentence a person can act on, and a kind the page acts on (start button, sign-in).
import { describe, expect, it } from "vitest";
import { AvatarApiError } from "../../../shared/client/index.ts";
import { signInLinkIn } from "../../sign-in/outbox-mailer.ts";
import { explain, voiceGroupWords } from "./words.ts";

const http = (status: number, code: string, message = "box text.") => new AvatarApiError(status, code, message, { source: "http" });

describe("explain", () => {
  it("names the box being stopped or unreachable, whatever the status", () => {
    expect(explain(http(503, "box_not_running"))).toEqual({ kind: "box_stopped", text: expect.stringContaining("The box is stopped") });
    expect(explain(http(502, "box_unreachable")).kind).toBe("box_stopped");
  });

  it("says how to set a model when chat is not configured, and that Talk still works", () => {
    const p = explain(http(503, "chat_not_configured"));
    expect(p.kind).toBe("chat_not_configured");
    expect(p.text).toContain("BOX_OPENAI_BASE_URL");
    expect(p.text).toContain("Talk mode works without a model");
  });

  it("sends a refused or ended sign-in to sign in again, by code or by any 401", () => {
    expect(explain(http(401, "missing_api_key")).kind).toBe("signed_out");
    expect(explain(http(401, "something_new")).kind).toBe("signed_out");
    expect(explain(new AvatarApiError(0, "credential_revoked", "x", { source: "close" })).kind).toBe("signed_out");
  });

  it("keeps the library's own sentences (microphone problems) and the box's messages", () => {
    const mic = new AvatarApiError(
      0,
      "mic_denied",
      "Microphone permission was denied; allow it in the browser's site settings and try again.",
      { source: "local" },
    );
    expect(explain(mic).text).toBe(mic.message);
    expect(explain(http(400, "text_too_long", "text is 9000 characters; at most 4000 can be spoken at once.")).text).toBe(
      "text is 9000 characters; at most 4000 can be spoken at once.",
    );
    expect(explain(http(502, "tts_failed", "The voice engine failed.")).text).toBe(
      "The box had a problem: The voice engine failed. Try again in a moment.",
    );
    expect(explain(new AvatarApiError(0, "turn_failed", "the model timed out", { source: "frame" })).text).toBe(
      "The reply failed: the model timed out",
    );
    expect(explain(new Error("The box ended the call. Press Start call to begin again.")).text).toBe(
      "The box ended the call. Press Start call to begin again.",
    );
    expect(explain(new TypeError("Failed to fetch")).text).toBe("Something went wrong: Failed to fetch");
  });
});

describe("voiceGroupWords", () => {
  it("uses the box's reason when it gave one, else words for the state; nothing for a ready group", () => {
    expect(voiceGroupWords("ready", "", "Cartesia")).toBe("");
    expect(voiceGroupWords("key_problem", "Cartesia is not set up for you: save your key.", "Cartesia")).toBe(
      "Cartesia is not set up for you: save your key.",
    );
    expect(voiceGroupWords("starting", "", "Chatterbox")).toBe("Chatterbox is still starting; its voices appear in a moment.");
  });
});

describe("the sign-in link on the console", () => {
  it("is found in the mail the outbox mailer writes", () => {
    const text =
      "Open this link to sign in. It works once, for 15 minutes:\n\nhttp://127.0.0.1:8787/auth/callback?token=abc_DEF-123\n\nIf you did not ask, ignore this mail.\n";
    expect(signInLinkIn(text)).toBe("http://127.0.0.1:8787/auth/callback?token=abc_DEF-123");
    expect(signInLinkIn("no link here")).toBeNull();
  });
});
