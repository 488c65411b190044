// The studio's one stylesheet. Colours are chosen for contrast (body text 15:1, muted text and
// every button at least 4.5:1 on its background), focus is always visible (3 px ring), and the
// layout is one column below 900 px so a 390 px phone needs no sideways scrolling.
import { DOCS_CSS } from "./styles/docs.ts";
import { GPU_CSS } from "./styles/gpu.ts";
import { LIBRARY_CSS } from "./styles/library.ts";
import { LIVE_CSS } from "./styles/live.ts";
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
/* On a phone: brand and sign-out on one row, the nav on the next, scrolling sideways inside itself rather than wrapping. */
@media (max-width: 720px) {
  .top-bar { display: grid; grid-template-columns: minmax(0, 1fr) auto; gap: 4px 12px; padding: 6px 12px; }
  .top-bar .brand { grid-column: 1; grid-row: 1; }
  .top-bar .who { grid-column: 2; grid-row: 1; }
  .top-bar nav { grid-column: 1 / -1; grid-row: 2; overflow-x: auto; scrollbar-width: thin; }
  .top-bar nav ul { flex-wrap: nowrap; }
  .top-bar nav a { padding: 6px 8px; white-space: nowrap; }
  .top-bar button.quiet { min-height: 36px; }
}
@media (max-width: 480px) { .who-email { display: none; } }

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
export const STUDIO_CSS = [BASE_CSS, LIVE_CSS, LIBRARY_CSS, PORTRAITS_CSS, VOICES_CSS, GPU_CSS, DOCS_CSS].join("\n");
