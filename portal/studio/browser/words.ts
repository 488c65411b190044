// What went wrong and what to do, in words (issue 13: every page says it). One place maps the
// library's one error class (branching on `code`, never on the message) to a sentence and a kind
// the page can act on (offer a start button, send to sign-in). Also the studio's one way to write
// a moment and a duration (`when`, `ago`, `elapsed`).
import { AvatarApiError } from "../../../shared/client/index.ts";

export type ProblemKind = "box_stopped" | "signed_out" | "chat_not_configured" | "tts_not_configured" | "no_call" | "busy" | "other";

export interface Problem {
  kind: ProblemKind;
  text: string;
}

export const HOW_TO_SET_A_MODEL =
  "Chat is not configured: the box has no language model. Whoever runs the box sets one and restarts it: BOX_OPENAI_BASE_URL for any " +
  "OpenAI-compatible server (a local Ollama is http://127.0.0.1:11434/v1), or BOX_ANTHROPIC_BASE_URL, or BOX_BEDROCK_REGION. Talk mode works without a model.";

export const HOW_TO_SET_A_VOICE =
  "The box has no working voice engine, so nothing can be spoken. Whoever runs the box checks BOX_TTS (espeak is built in) and the box's log, then restarts it.";

const BY_CODE: Record<string, Problem> = {
  box_not_running: { kind: "box_stopped", text: "The box is stopped, so there is no avatar to talk to." },
  box_unreachable: {
    kind: "box_stopped",
    text: "The box is not answering: it may be starting, or it stopped. Wait a moment; if it stays like this, start it again.",
  },
  missing_api_key: { kind: "signed_out", text: "You are signed out (the session ended). Sign in again to go on." },
  invalid_api_key: { kind: "signed_out", text: "Your sign-in is no longer valid (it ended or was revoked). Sign in again to go on." },
  credential_revoked: { kind: "signed_out", text: "The box credential of this page was revoked. Sign in again to go on." },
  credential_refused: { kind: "signed_out", text: "The box refused this page's credential. Sign in again to go on." },
  chat_not_configured: { kind: "chat_not_configured", text: HOW_TO_SET_A_MODEL },
  tts_not_configured: { kind: "tts_not_configured", text: HOW_TO_SET_A_VOICE },
  no_live_session: { kind: "no_call", text: "No call is on: press Start call first (sending does it for you)." },
  too_many_turns: { kind: "busy", text: "Too many replies are running at once. Wait for one to finish, or press Interrupt." },
  blank_text: { kind: "other", text: "Type something first." },
  blank_message: { kind: "other", text: "Type something first." },
  network_error: { kind: "other", text: "The portal could not be reached. Check the connection, then try again (or reload the page)." },
  no_webrtc: { kind: "other", text: "This browser cannot receive live video (no WebRTC). Use a current Chrome, Edge, Firefox or Safari." },
  gpu_admin_only: { kind: "other", text: "Only this portal's administrators can start or stop the box. Ask one of them." },
  gpu_launch_not_configured: {
    kind: "other",
    text: "This portal has no way to start a box (PORTAL_GPU_DRIVER is none). Start the box yourself, or set PORTAL_BOX_URL.",
  },
  key_limit_reached: {
    kind: "other",
    text: "You have reached the limit of 100 keys (revoked keys count too). No more keys can be created for this account.",
  },
  cross_site_request: {
    kind: "other",
    text: "The portal refused a change that did not come from its own pages. Reload the page and try again.",
  },
};

/** The error as one sentence a person can act on. */
export function explain(err: unknown): Problem {
  if (err instanceof AvatarApiError) {
    const known = BY_CODE[err.code];
    if (known) return known;
    if (err.code === "turn_failed") return { kind: "other", text: `The reply failed: ${err.message}` };
    if (err.code === "voice_provider_unavailable" || err.code === "unknown_voice")
      return { kind: "other", text: `${err.message} Pick another voice.` };
    if (err.status === 401) return BY_CODE.invalid_api_key;
    if (err.status >= 500) return { kind: "other", text: `The box had a problem: ${err.message} Try again in a moment.` };
    return { kind: "other", text: err.message || `The request failed (${err.code}).` };
  }
  const name = (err as { name?: string })?.name;
  if (name === "AbortError") return { kind: "other", text: "Stopped." };
  // Sentences this script wrote itself are already in words.
  if (err instanceof Error && name === "Error" && /[.!?]$/.test(err.message)) return { kind: "other", text: err.message };
  return { kind: "other", text: `Something went wrong: ${(err as Error)?.message ?? String(err)}` };
}

/**
 * Why the camera or a screen share did not start, from the browser's error name (getUserMedia /
 * getDisplayMedia): a refusal, a closed picker, no camera, a camera busy elsewhere.
 */
export function cameraProblem(err: unknown, source: "camera" | "screen"): string {
  const name = (err as { name?: string })?.name;
  if (source === "screen") {
    if (name === "NotAllowedError" || name === "AbortError")
      return "Screen sharing did not start: the screen picker was closed, or sharing was refused. Press Share screen and pick a screen, window or tab to show the avatar.";
    if (name === "NotSupportedError" || name === "TypeError")
      return "This browser cannot share a screen from this page. Use a current desktop Chrome, Edge or Firefox.";
    return `Screen sharing did not start (${name ?? "an error"}). Try again, or pick another window.`;
  }
  switch (name) {
    case "NotAllowedError":
    case "SecurityError":
      return "The camera is blocked for this page. Allow it in the browser's site settings (the camera icon in the address bar), then press Camera again.";
    case "NotFoundError":
    case "OverconstrainedError":
      return "No camera was found. Connect one (or turn it on), then press Camera again.";
    case "NotReadableError":
    case "AbortError":
      return "The camera is in use by another app or tab, or the system blocked it. Close the other one, then press Camera again.";
    case "NotSupportedError":
    case "TypeError":
      return "This browser cannot use a camera on this page (it needs a secure https page and a current browser).";
    default:
      return `The camera did not start (${name ?? "an error"}). Try again.`;
  }
}

/** Why a voice group cannot be used: the box's own line when it gave one, else from its state. */
export function voiceGroupWords(state: string, reason: string, label: string): string {
  if (state === "ready") return "";
  if (reason) return reason;
  switch (state) {
    case "starting":
      return `${label} is still starting; its voices appear in a moment.`;
    case "key_problem":
      return `${label} needs a working key of yours (save one on the portal's voice settings).`;
    case "empty":
      return `${label} offers no voices right now.`;
    default:
      return `${label} cannot be used now.`;
  }
}

/**
 * The studio's one way to write a moment: "29 Nov 2026, 11:05" in the browser's own language and
 * time zone (the same on the library, portraits and keys pages). `locale`/`timeZone` are for tests.
 */
export function when(epochSeconds: number, locale?: string, timeZone?: string): string {
  const d = new Date(epochSeconds * 1000);
  const day = d.toLocaleDateString(locale, { day: "numeric", month: "short", year: "numeric", timeZone });
  const time = d.toLocaleTimeString(locale, { hour: "2-digit", minute: "2-digit", hourCycle: "h23", timeZone });
  return `${day}, ${time}`;
}

/** How long ago, for lists: "just now", "3 min ago", "2 h ago", "5 days ago"; past a month, `when()`. */
export function ago(epochSeconds: number, nowMs = Date.now()): string {
  const s = Math.max(0, Math.round(nowMs / 1000 - epochSeconds));
  if (s < 45) return "just now";
  const min = Math.round(s / 60);
  if (min < 60) return `${min} min ago`;
  const hours = Math.round(s / 3600);
  if (hours < 24) return `${hours} h ago`;
  const days = Math.round(s / 86_400);
  if (days < 31) return days === 1 ? "yesterday" : `${days} days ago`;
  return when(epochSeconds);
}

/** A duration measured here, in words: "3 s", "1 min 05 s". */
export function elapsed(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s} s`;
  return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, "0")} s`;
}

/** Rewrites every `<time datetime>` under `root` with `when()` (server-rendered lists write UTC). */
export function localiseTimes(root: ParentNode): void {
  for (const t of root.querySelectorAll<HTMLTimeElement>("time[datetime]")) {
    const ms = Date.parse(t.dateTime);
    if (!Number.isNaN(ms)) t.textContent = when(Math.floor(ms / 1000));
  }
}
