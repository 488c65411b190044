// Styles of the Voices page, and of the voice picker it shares with the live page
// (browser/voice-picker.ts; portal/studio/styles.ts adds them to the one stylesheet).
// Engine cards side by side where two fit (one fills the row alone), one column on a phone; state pills use the base
// palette's text-on-background pairs (each at least 4.5:1).
export const VOICES_CSS = `
/* voices */
.engine-options { display: grid; gap: 8px; margin: 4px 0 10px; }
.engine-option { display: flex; align-items: flex-start; gap: 12px; margin: 0; padding: 10px 12px; border: 1px solid var(--line); border-radius: 8px; font-weight: 400; cursor: pointer; min-width: 0; }
.engine-option:has(input:checked) { border-color: var(--primary); background: var(--info-bg); }
.engine-option:has(input:disabled) { cursor: not-allowed; }
.engine-option:has(input:focus-visible) { outline: 3px solid var(--focus); outline-offset: 2px; }
.engine-option input { flex: 0 0 auto; width: 20px; height: 20px; min-height: 0; margin: 2px 0 0; padding: 0; accent-color: var(--primary); }
.engine-option input:focus-visible { outline: none; }
.engine-text { display: flex; flex-direction: column; min-width: 0; }
.engine-name { font-weight: 600; }
.engine-option:has(input:disabled) .engine-name { color: var(--muted); }
.engine-text .hint { overflow-wrap: anywhere; }
.voices-head { display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: 8px; margin: 8px 0 10px; }
.voices-head h2 { margin: 0; }
h2.voices-title { margin: 8px 0 10px; }
.voice-grid { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 320px), 1fr)); gap: var(--gap); margin-bottom: 20px; }
.voice-grid > .card { margin-bottom: 0; }
.voice-grid > [hidden], .voice-card [hidden] { display: none; }
.voice-card { display: flex; flex-direction: column; gap: 10px; }
.voice-card > * { margin: 0; }
.voice-card .card-head { margin: 0; flex-wrap: wrap; }
.voice-facts { display: grid; gap: 6px; }
.voice-fact dt { font-size: 0.85rem; font-weight: 600; color: var(--muted); }
.voice-fact dd { margin: 0; overflow-wrap: anywhere; }
.voice-state { display: inline-block; font-size: 0.85rem; font-weight: 600; padding: 1px 8px; border-radius: 999px; border: 1px solid #9aa2af; background: #eceff3; color: #3d4451; }
.voice-state[data-state="ok"] { background: var(--ok-bg); color: var(--ok-text); border-color: var(--ok-line); }
.voice-state[data-state="warn"] { background: var(--warn-bg); color: var(--warn-text); border-color: var(--warn-line); }
.voice-state[data-state="bad"] { background: var(--err-bg); color: var(--err-text); border-color: var(--err-line); }
.voice-key-form .field, .voice-key-form label { margin-bottom: 4px; }
.voice-key-form .hint { margin: 4px 0 0; }
.voice-actions { display: flex; flex-wrap: wrap; align-items: flex-start; justify-content: space-between; gap: 10px; }
.voice-sample { display: flex; flex-wrap: wrap; align-items: center; gap: 10px; min-width: 0; }
.voice-sample audio { max-width: 100%; height: 40px; }
.voice-card .result { margin-top: 0; }

/* voice picker (live page and Voices page): the chosen name wraps, never cut off */
.voice-picker { position: relative; flex: 1 1 220px; min-width: 0; display: flex; flex-direction: column; gap: 6px; }
.vp-current { margin: 0; overflow-wrap: anywhere; white-space: normal; }
.vp-current .hint { margin: 0; }
.vp-search { width: 100%; }
.vp-list { list-style: none; margin: 0; padding: 4px 0; max-height: min(320px, 50vh); overflow-y: auto; border: 1px solid var(--line); border-radius: 8px; background: var(--surface); box-shadow: 0 6px 18px rgba(0,0,0,0.12); z-index: 5; }
.vp-list[hidden] { display: none; }
.vp-list ul { list-style: none; margin: 0; padding: 0; }
.vp-group { margin: 0; padding: 6px 10px 2px; font-size: 0.8rem; font-weight: 600; color: var(--muted); text-transform: uppercase; letter-spacing: 0.03em; }
.vp-option { padding: 6px 10px; cursor: pointer; overflow-wrap: anywhere; }
.vp-option[aria-selected="true"] { font-weight: 600; }
.vp-option.active, .vp-option:hover { background: var(--info-bg); outline: 2px solid var(--primary); outline-offset: -2px; }
.vp-none { padding: 6px 10px; color: var(--muted); }
`;
