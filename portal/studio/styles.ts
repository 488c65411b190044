// The studio's one stylesheet. Colours are chosen for contrast (body text 15:1, muted text and
// every button at least 4.5:1 on its background), focus is always visible (3 px ring), and the
// layout is one column below 900 px so a 390 px phone needs no sideways scrolling.
import { GPU_CSS } from "./styles/gpu.ts";
import { LIBRARY_CSS } from "./styles/library.ts";
import { PORTRAITS_CSS } from "./styles/portraits.ts";
import { VOICES_CSS } from "./styles/voices.ts";

const BASE_CSS = `
:root {
  --bg: #f4f6f9; --surface: #ffffff; --text: #161a22; --muted: #4b5363; --line: #c6ccd6;
  --primary: #1d4ed8; --primary-hover: #1e3fa8; --on-primary: #ffffff;
  --danger: #b42318; --danger-hover: #912018; --focus: #0b57d0;
  --ok-bg: #ecfdf3; --ok-line: #067647; --ok-text: #05603a;
  --warn-bg: #fffaeb; --warn-line: #b54708; --warn-text: #7a2e0e;
  --err-bg: #fef3f2; --err-line: #b42318; --err-text: #7a271a;
  --info-bg: #eef4ff; --info-line: #3559c7; --info-text: #1d2f6f;
  --radius: 10px; --gap: 16px;
  font-family: system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", sans-serif;
  font-size: 16px; line-height: 1.5; color: var(--text); background: var(--bg);
}
*, *::before, *::after { box-sizing: border-box; }
body { margin: 0; min-height: 100vh; }
h1, h2, h3 { line-height: 1.25; margin: 0 0 8px; }
h1 { font-size: 1.75rem; } h2 { font-size: 1.15rem; } h3 { font-size: 1rem; }
p { margin: 0 0 8px; }
a { color: var(--primary); text-underline-offset: 2px; }
a:hover { color: var(--primary-hover); }
code, .mono { font-family: ui-monospace, "SFMono-Regular", Menlo, Consolas, monospace; font-size: 0.9em; overflow-wrap: anywhere; }
:focus-visible { outline: 3px solid var(--focus); outline-offset: 2px; }
.visually-hidden { position: absolute !important; width: 1px; height: 1px; margin: -1px; padding: 0; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap; border: 0; }
.skip-link { position: absolute; left: 8px; top: -48px; z-index: 10; padding: 8px 12px; background: var(--surface); color: var(--primary); border-radius: 6px; }
.skip-link:focus { top: 8px; }
.page-width { max-width: 1240px; margin: 0 auto; padding: 20px 16px 48px; }
.narrow { max-width: 560px; }
.medium { max-width: 880px; }
.lead { color: var(--muted); max-width: 70ch; margin-bottom: 16px; }
.hint { color: var(--muted); font-size: 0.9rem; }
.empty { color: var(--muted); }

/* top bar */
.top-bar { display: flex; flex-wrap: wrap; align-items: center; gap: 8px 20px; padding: 10px 16px; background: #111827; color: #f9fafb; }
.top-bar a { color: #f9fafb; }
.brand { font-weight: 700; text-decoration: none; font-size: 1.05rem; }
.top-bar nav { min-width: 0; max-width: 100%; }
.top-bar nav ul { display: flex; flex-wrap: wrap; gap: 4px; list-style: none; margin: 0; padding: 0; }
.top-bar nav a { display: inline-block; padding: 6px 10px; border-radius: 6px; text-decoration: none; }
.top-bar nav a:hover { background: #273244; color: #fff; }
.top-bar nav a[aria-current="page"] { background: #273244; text-decoration: underline; text-decoration-thickness: 2px; text-underline-offset: 5px; }
.top-bar :focus-visible { outline-color: #93b4ff; }
.who { margin-left: auto; display: flex; align-items: center; gap: 10px; min-width: 0; }
.who-email { color: #d1d5db; font-size: 0.9rem; overflow: hidden; text-overflow: ellipsis; white-space: nowrap; max-width: 40vw; }
.top-bar button.quiet { color: #f9fafb; border-color: #6b7280; background: transparent; }
.top-bar button.quiet:hover { background: #273244; }

/* controls */
button { font: inherit; min-height: 44px; padding: 8px 16px; border-radius: 8px; border: 1px solid #8a93a3; background: var(--surface); color: var(--text); cursor: pointer; }
button:hover { background: #eef1f5; }
button:disabled { cursor: not-allowed; color: #5d6472; background: #e8ebf0; border-color: #c6ccd6; }
button.primary { background: var(--primary); border-color: var(--primary); color: var(--on-primary); font-weight: 600; }
button.primary:hover { background: var(--primary-hover); }
button.danger { background: var(--danger); border-color: var(--danger); color: #fff; font-weight: 600; }
button.danger:hover { background: var(--danger-hover); }
button.danger-outline { color: var(--danger); border-color: var(--danger); }
button.danger-outline:hover { background: var(--err-bg); }
button.primary:disabled, button.danger:disabled { background: #e8ebf0; border-color: #c6ccd6; color: #5d6472; }
button.quiet { min-height: 36px; padding: 4px 12px; }
button[aria-pressed="true"] { background: var(--ok-line); border-color: var(--ok-line); color: #fff; }
input, select, textarea { font: inherit; color: var(--text); background: var(--surface); border: 1px solid #8a93a3; border-radius: 8px; padding: 9px 12px; min-height: 44px; width: 100%; }
textarea { resize: vertical; }
label { font-weight: 600; display: block; margin-bottom: 4px; }
fieldset { border: 0; margin: 0; padding: 0; min-width: 0; }
legend { font-weight: 600; padding: 0; margin-bottom: 4px; }
.field { margin-bottom: 14px; min-width: 0; }
.field .hint { margin: 4px 0 0; }
.stack > * + * { margin-top: 12px; }
.inline-form { display: flex; flex-wrap: wrap; gap: 10px; align-items: flex-start; }
.inline-form > button { flex: 0 0 auto; }
.grow { flex: 1 1 220px; min-width: 0; }
.actions { display: flex; flex-wrap: wrap; gap: 10px; justify-content: flex-end; }
.card { background: var(--surface); border: 1px solid var(--line); border-radius: var(--radius); padding: 16px; margin-bottom: var(--gap); min-width: 0; }
.card-head { display: flex; align-items: center; justify-content: space-between; gap: 8px; margin-bottom: 8px; }
.card-head h2 { margin: 0; }
.badge { display: inline-block; font-size: 0.8rem; font-weight: 600; padding: 2px 8px; border-radius: 999px; background: var(--info-bg); color: var(--info-text); border: 1px solid var(--info-line); }
.badge.muted { background: #eceff3; color: #3d4451; border-color: #9aa2af; }
.badge.own { background: var(--ok-bg); color: var(--ok-text); border-color: var(--ok-line); }

/* notices: what went wrong and what to do, in words */
.notice { border: 1px solid; border-left-width: 5px; border-radius: 8px; padding: 12px 14px; margin: 0 0 12px; }
.notice p:last-child { margin-bottom: 0; }
.notice.info { background: var(--info-bg); border-color: var(--info-line); color: var(--info-text); }
.notice.success { background: var(--ok-bg); border-color: var(--ok-line); color: var(--ok-text); }
.notice.warning { background: var(--warn-bg); border-color: var(--warn-line); color: var(--warn-text); }
.notice.error { background: var(--err-bg); border-color: var(--err-line); color: var(--err-text); }
.notice a { color: inherit; font-weight: 600; }
.notice .notice-actions { display: flex; flex-wrap: wrap; gap: 8px; margin-top: 8px; }
.result:empty { display: none; }
.result { margin-top: 10px; }
.result.error { color: var(--err-text); font-weight: 600; }
.result.ok { color: var(--ok-text); font-weight: 600; }

/* keys */
.key-list { list-style: none; margin: 0 0 12px; padding: 0; display: grid; gap: 10px; }
.key-row { display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: 10px; background: var(--surface); border: 1px solid var(--line); border-radius: var(--radius); padding: 12px 14px; }
.key-facts { min-width: 0; flex: 1 1 240px; }
.key-facts .key-name { overflow-wrap: anywhere; margin-bottom: 2px; }
.key-facts p { margin: 0; }
.revoked-keys summary { cursor: pointer; padding: 8px 0; font-weight: 600; }
.secret-panel { margin-top: 14px; padding: 14px; border: 2px solid var(--warn-line); background: var(--warn-bg); color: var(--warn-text); border-radius: var(--radius); }
.secret-row { display: flex; flex-wrap: wrap; gap: 10px; margin: 10px 0; }
.secret-row textarea { flex: 1 1 260px; min-width: 0; color: var(--text); resize: none; word-break: break-all; }
dialog { border: 1px solid var(--line); border-radius: var(--radius); padding: 20px; max-width: min(480px, calc(100vw - 32px)); color: var(--text); }
dialog::backdrop { background: rgba(17, 24, 39, 0.55); }

/* live */
.notices:empty { display: none; }
.live-grid { display: grid; grid-template-columns: minmax(0, 1fr); gap: var(--gap); }
@media (min-width: 900px) { .live-grid { grid-template-columns: minmax(0, 1.35fr) minmax(320px, 1fr); align-items: start; } }
.stage, .side { min-width: 0; }
.stage > :last-child, .side > :last-child { margin-bottom: 0; }
.provider-note summary { cursor: pointer; padding: 4px 0; }
.provider-note ul { margin: 4px 0 0; padding-left: 18px; }
.provider-note li { margin-bottom: 4px; }
.video-frame { position: relative; aspect-ratio: 1 / 1; width: 100%; max-width: 560px; margin: 0 auto; background: #0f1420; border-radius: var(--radius); overflow: hidden; }
.video-frame video { width: 100%; height: 100%; object-fit: contain; display: block; }
.video-overlay { position: absolute; inset: 0; display: flex; align-items: center; justify-content: center; padding: 24px; text-align: center; color: #e5e7eb; }
.video-overlay[hidden] { display: none; }
.call-bar { display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: 10px; margin: 12px auto; max-width: 560px; }
.call-buttons { display: flex; flex-wrap: wrap; gap: 8px; }
.state { display: inline-flex; align-items: center; gap: 8px; margin: 0; padding: 6px 12px; border-radius: 999px; background: #e9edf3; font-weight: 600; border: 1px solid #b8c0cc; }
.state .dot { width: 12px; height: 12px; border-radius: 50%; background: #6b7280; }
.state[data-state="connecting"] .dot { background: #b54708; }
.state[data-state="listening"] .dot { background: #067647; }
.state[data-state="thinking"] .dot { background: #6941c6; }
.state[data-state="speaking"] .dot { background: #1d4ed8; box-shadow: 0 0 0 4px rgba(29, 78, 216, 0.25); }
.state[data-state="paused"] .dot { background: #b54708; border-radius: 2px; }
.captions { max-width: 560px; margin: 0 auto 12px; min-height: 88px; max-height: 220px; overflow-y: auto; background: var(--surface); border: 1px solid var(--line); border-radius: var(--radius); padding: 10px 14px; }
.captions .placeholder { color: var(--muted); }
.captions p { margin: 0 0 6px; overflow-wrap: anywhere; }
.captions .speaker { font-weight: 700; }
.captions .chip { display: inline-block; font-size: 0.85rem; margin: 2px 0 6px; padding: 2px 10px; border-radius: 999px; background: #f4f3ff; color: #3e1c96; border: 1px solid #6941c6; }
.captions .chip.failed { background: var(--err-bg); color: var(--err-text); border-color: var(--err-line); }
.partial { max-width: 560px; margin: -6px auto 12px; color: var(--muted); font-style: italic; }
.turn-form, .mic { max-width: 560px; margin-left: auto; margin-right: auto; }
.modes { display: flex; flex-wrap: wrap; gap: 8px 20px; margin-bottom: 12px; }
.mode { display: flex; align-items: center; gap: 8px; font-weight: 400; margin: 0; min-height: 44px; cursor: pointer; }
.mode input { width: 20px; height: 20px; min-height: 0; margin: 0; accent-color: var(--primary); }
.mic-buttons { display: flex; flex-wrap: wrap; gap: 8px; margin-bottom: 6px; }
#hold-to-talk { touch-action: none; user-select: none; -webkit-user-select: none; }
#hold-to-talk.held { background: var(--ok-line); border-color: var(--ok-line); color: #fff; }
.avatar-grid > p { grid-column: 1 / -1; margin: 0; }
.avatar-grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(104px, 1fr)); gap: 8px; margin-bottom: 14px; }
.avatar-card { position: relative; display: flex; flex-direction: column; align-items: center; gap: 4px; margin: 0; padding: 6px; border: 2px solid var(--line); border-radius: var(--radius); cursor: pointer; font-weight: 400; text-align: center; min-width: 0; }
.avatar-card:has(input:checked) { border-color: var(--primary); background: var(--info-bg); }
.avatar-card:has(input:focus-visible) { outline: 3px solid var(--focus); outline-offset: 2px; }
.avatar-card input { position: absolute; opacity: 0; width: 1px; height: 1px; min-height: 0; }
.avatar-card img, .avatar-card .no-still { width: 100%; aspect-ratio: 1 / 1; object-fit: cover; border-radius: 6px; background: #dfe3ea; }
.avatar-card .name { font-size: 0.85rem; overflow-wrap: anywhere; line-height: 1.3; }
.readiness { list-style: none; margin: 0; padding: 0; display: grid; gap: 8px; }
.readiness li { display: flex; gap: 8px; align-items: baseline; }
.readiness .mark { flex: 0 0 auto; font-weight: 700; width: 1.2em; text-align: center; }
.readiness .up .mark { color: var(--ok-line); }
.readiness .down .mark { color: var(--err-line); }
.readiness .wait .mark { color: var(--warn-line); }
.latency { display: grid; grid-template-columns: minmax(0, 1fr) auto; gap: 4px 12px; margin: 0; }
.latency dt { color: var(--muted); }
.latency dd { margin: 0; font-variant-numeric: tabular-nums; font-weight: 600; text-align: right; }
.event-log { list-style: none; margin: 0; padding: 0; max-height: 260px; overflow-y: auto; font-size: 0.85rem; border-top: 1px solid var(--line); }
.event-log li { display: grid; grid-template-columns: auto minmax(0, 1fr); gap: 8px; padding: 4px 2px; border-bottom: 1px solid #e3e7ee; }
.event-log time { color: var(--muted); font-variant-numeric: tabular-nums; }
.event-log .text { overflow-wrap: anywhere; }
.event-log .error .text { color: var(--err-text); }
@media (max-width: 480px) {
  h1 { font-size: 1.45rem; }
  .page-width { padding: 14px 12px 40px; }
  .call-bar { flex-direction: column; align-items: stretch; }
  .call-buttons > button { flex: 1 1 auto; }
  .state { justify-content: center; }
}
@media (prefers-reduced-motion: no-preference) { button, .avatar-card { transition: background-color 0.12s, border-color 0.12s; } }

/* live: persona panel (browser/live/persona.ts) */
.persona > details > summary { display: flex; flex-wrap: wrap; align-items: center; gap: 2px 12px; min-height: 44px; cursor: pointer; list-style: none; border-radius: 6px; }
.persona > details > summary::-webkit-details-marker { display: none; }
.persona > details > summary::before { content: ""; flex: 0 0 auto; width: 0; height: 0; border-left: 8px solid var(--text); border-top: 6px solid transparent; border-bottom: 6px solid transparent; }
.persona > details[open] > summary::before { transform: rotate(90deg); }
.persona > details[open] > summary { margin-bottom: 12px; }
.persona summary h2 { margin: 0; }
.persona .counter { margin: 4px 0 0; font-variant-numeric: tabular-nums; }
.persona .counter.over { color: var(--err-text); font-weight: 600; }
.field-error { color: var(--err-text); font-weight: 600; font-size: 0.9rem; margin: 4px 0 0; overflow-wrap: anywhere; }
.field-error[hidden] { display: none; }
.persona [aria-invalid="true"] { border-color: var(--err-line); box-shadow: 0 0 0 1px var(--err-line); }
.persona textarea.mono { font-size: 0.85rem; }
.persona code { overflow-wrap: anywhere; }
.check { display: flex; align-items: flex-start; gap: 10px; margin: 0 0 10px; min-width: 0; }
.check input { flex: 0 0 auto; width: 20px; height: 20px; min-height: 0; margin: 2px 0 0; padding: 0; accent-color: var(--primary); }
.check label { margin: 0; min-width: 0; overflow-wrap: anywhere; }
.check-sentence { display: block; font-weight: 400; font-size: 0.9rem; color: var(--muted); }
.check-hint { margin: -6px 0 8px 30px; }
.persona-group { margin: 18px 0 14px; padding-top: 12px; border-top: 1px solid var(--line); }
.persona-group > legend { float: left; width: 100%; margin-bottom: 6px; }
.persona-group > legend + * { clear: both; }
.persona-group > h3 { font-size: 1rem; margin-bottom: 4px; }
.tool-list { list-style: none; margin: 8px 0 10px; padding: 0; display: grid; gap: 12px; }
.tool-list:empty { display: none; }
.tool-row > fieldset { border: 1px solid var(--line); border-radius: 8px; padding: 10px 12px 12px; background: #f8f9fb; min-width: 0; }
.tool-row legend { padding: 0 4px; overflow-wrap: anywhere; max-width: 100%; }
.tool-options { display: flex; flex-wrap: wrap; gap: 0 12px; }
.tool-options > .field { flex: 1 1 180px; min-width: 0; }
.tool-options > .field:last-child { flex: 0 1 180px; }
.tool-row .actions { margin-top: 4px; }
.tool-row .mode-hint { margin: -6px 0 12px; }
`;

/** The base, then each page's own rules. */
export const STUDIO_CSS = [BASE_CSS, LIBRARY_CSS, PORTRAITS_CSS, VOICES_CSS, GPU_CSS].join("\n");
