// Styles of the live page (portal/studio/live-page.tsx; portal/studio/styles.ts adds them to the
// one stylesheet). The stage (video, call buttons, captions, the typed box and the microphone) is
// as tall as the visible viewport less the top bar (`--live-vh` and `--top-h`, kept by
// browser/live/viewport.ts from the visual viewport; `100dvh` until the script runs), and the video
// takes what the rest leaves: the face and Start call stay in view at every size, banners included,
// and on a phone the keyboard shrinks the video instead of pushing it away. From 900 px the side
// panels scroll in their own column; below, they follow the stage.
export const LIVE_CSS = `
/* live */
.notices:empty { display: none; }
main.live { padding: 12px 16px; }
.live-grid { display: grid; grid-template-columns: minmax(0, 1fr); gap: var(--gap); }
.stage, .side { min-width: 0; }
.stage { display: flex; flex-direction: column; gap: 8px; height: calc(var(--live-vh, 100dvh) - var(--top-h, 0px) - 24px); min-height: 320px; }
.stage > * { flex: 0 0 auto; margin: 0; }
.stage .notices { max-height: 34%; overflow-y: auto; }
.stage .notice { margin-bottom: 6px; padding: 8px 12px; }
.side > :last-child { margin-bottom: 0; }
@media (min-width: 900px) {
  main.live { height: calc(var(--live-vh, 100dvh) - var(--top-h, 0px)); }
  .live-grid { grid-template-columns: minmax(0, 1.35fr) minmax(320px, 1fr); height: 100%; }
  .stage { height: 100%; min-height: 0; }
  .side { height: 100%; overflow-y: auto; padding-right: 4px; }
}
.provider-note summary { cursor: pointer; padding: 4px 0; }
.provider-note ul { margin: 4px 0 0; padding-left: 18px; }
.provider-note li { margin-bottom: 4px; }

/* the video: whatever height the stage leaves, square where it can be */
.video-wrap { flex: 1 1 0; min-height: 96px; display: flex; justify-content: center; }
.video-frame { container-type: size; position: relative; height: 100%; aspect-ratio: 1 / 1; max-width: 100%; background: #0f1420; border-radius: var(--radius); overflow: hidden; }
.video-frame video { width: 100%; height: 100%; object-fit: contain; display: block; }
.video-frame[data-startable="true"] { cursor: pointer; }
.video-frame[data-startable="true"]:hover .play-mark { background: var(--primary-hover); }
.video-overlay { position: absolute; inset: 0; display: flex; flex-direction: column; align-items: center; justify-content: center; gap: 10px; padding: 16px; text-align: center; color: #e5e7eb; }
.video-overlay p { margin: 0; max-width: 32ch; }
.video-overlay[hidden] { display: none; }
/* A small video keeps the play mark and drops the sentence (Start call says the same beside it). */
@container (max-height: 230px) { .video-overlay p { display: none; } }
.play-mark { flex: 0 0 auto; width: 56px; height: 56px; border-radius: 50%; background: var(--primary); position: relative; }
.play-mark::after { content: ""; position: absolute; left: 22px; top: 17px; border-left: 18px solid #fff; border-top: 11px solid transparent; border-bottom: 11px solid transparent; }
.video-frame:not([data-startable="true"]) .play-mark { display: none; }

.call-bar { display: flex; flex-wrap: wrap; align-items: center; justify-content: space-between; gap: 8px; }
.call-buttons { display: flex; flex-wrap: wrap; gap: 8px; }
.state { display: inline-flex; align-items: center; gap: 8px; margin: 0; padding: 6px 12px; border-radius: 999px; background: #e9edf3; font-weight: 600; border: 1px solid #b8c0cc; }
.state .dot { width: 12px; height: 12px; border-radius: 50%; background: #6b7280; }
.state[data-state="connecting"] .dot { background: #b54708; }
.state[data-state="listening"][data-mic="on"] .dot, .state[data-state="hearing"] .dot { background: #067647; }
.state[data-state="hearing"] .dot { box-shadow: 0 0 0 4px rgba(6, 118, 71, 0.25); }
.state[data-state="thinking"] .dot { background: #6941c6; }
.state[data-state="speaking"] .dot { background: #1d4ed8; box-shadow: 0 0 0 4px rgba(29, 78, 216, 0.25); }
.state[data-state="paused"] .dot { background: #b54708; border-radius: 2px; }

.stage > .captions { flex: 0 1 auto; min-height: 2.6em; }
.captions { max-height: 5.4em; overflow-y: auto; background: var(--surface); border: 1px solid var(--line); border-radius: var(--radius); padding: 6px 12px; }
.captions .placeholder { color: var(--muted); }
.captions p { margin: 0 0 4px; overflow-wrap: anywhere; }
.captions .speaker { font-weight: 700; }
.captions .not-sent .words { color: var(--muted); text-decoration: line-through; }
.captions .not-sent-mark { font-size: 0.85rem; color: var(--err-text); font-weight: 600; }
.captions .chip { display: inline-block; font-size: 0.85rem; margin: 2px 0 6px; padding: 2px 10px; border-radius: 999px; background: #f4f3ff; color: #3e1c96; border: 1px solid #6941c6; }
.captions .chip.failed { background: var(--err-bg); color: var(--err-text); border-color: var(--err-line); }
.partial { color: var(--muted); font-style: italic; }

/* the typed box */
.turn-form { display: flex; flex-direction: column; gap: 6px; }
.modes { display: flex; flex-wrap: wrap; gap: 0 20px; }
.mode { display: flex; align-items: center; gap: 8px; font-weight: 400; margin: 0; min-height: 36px; cursor: pointer; }
.mode input { width: 20px; height: 20px; min-height: 0; margin: 0; accent-color: var(--primary); }
.mode-note { margin: 0; font-size: 0.9rem; color: var(--warn-text); }
.mode-note[hidden] { display: none; }
/* A refused send says the same and more: the note steps aside while it shows. */
.turn-form:has(.turn-error:not(:empty)) .mode-note { display: none; }
.mode-note summary { cursor: pointer; min-height: 24px; }
.mode-note p { margin: 4px 0 0; color: var(--text); }
.composer { display: flex; gap: 8px; align-items: stretch; }
.composer textarea { flex: 1 1 auto; min-width: 0; resize: none; min-height: 48px; }
.composer button { flex: 0 0 auto; }
.turn-error:empty { display: none; }
.turn-error { border: 1px solid var(--err-line); border-left-width: 5px; background: var(--err-bg); color: var(--err-text); border-radius: 8px; padding: 8px 12px; }
.turn-error p { margin: 0; }
.turn-error .notice-actions { display: flex; flex-wrap: wrap; align-items: center; gap: 8px 14px; margin-top: 6px; }
.turn-error .notice-actions button { min-height: 40px; padding: 6px 14px; }
.turn-error .how-to { flex: 1 1 200px; min-width: 0; }
.turn-error .how-to summary { cursor: pointer; font-weight: 600; min-height: 40px; display: flex; align-items: center; }
.turn-error .how-to p { margin-top: 4px; color: var(--text); }
.turn-hint { margin: 0; font-size: 0.85rem; }
.model-setup code, .turn-error code, .mode-note code { overflow-wrap: anywhere; background: rgba(0, 0, 0, 0.05); padding: 0 3px; border-radius: 4px; }

/* the microphone */
.mic-row { display: flex; flex-wrap: wrap; align-items: center; gap: 8px; }
.mic-meter { flex: 1 1 80px; min-width: 60px; height: 12px; border-radius: 999px; background: #e3e7ee; border: 1px solid #9aa2af; overflow: hidden; }
.mic-meter-fill { display: block; height: 100%; width: 100%; transform-origin: left center; transform: scaleX(0); background: var(--ok-line); }
.mic-meter[data-on="false"] { opacity: 0.55; }
.mic-status { margin: 2px 0 0; font-size: 0.9rem; }
.mic-status.error { color: var(--err-text); font-weight: 600; }
#hold-to-talk { touch-action: none; user-select: none; -webkit-user-select: none; }
/* camera and screen (browser/live/camera.ts): toggles with what is sent where, the preview over the avatar's corner */
.camera-row { display: flex; flex-wrap: wrap; align-items: center; gap: 6px 8px; }
.camera-status { flex: 1 1 220px; min-width: 0; margin: 0; font-size: 0.85rem; color: var(--muted); }
.video-frame .camera-preview { position: absolute; right: 8px; bottom: 8px; width: 28%; max-width: 180px; height: auto; aspect-ratio: 4 / 3; object-fit: cover; border: 2px solid #fff; border-radius: 8px; background: #000; box-shadow: 0 2px 8px rgba(0, 0, 0, 0.45); transform: scaleX(-1); }
/* A camera is mirrored as in a looking glass; a screen reads the right way round, whole. */
.video-frame .camera-preview[data-source="screen"] { transform: none; object-fit: contain; }
.video-frame .camera-preview[hidden] { display: none; }
#hold-to-talk.held { background: var(--ok-line); border-color: var(--ok-line); color: #fff; }

/* the keyboard is up (a short visual viewport): the face and the box first, the rest waits */
.squeezed .stage .captions, .squeezed .stage .turn-hint, .squeezed .stage .mic, .squeezed .stage .camera, .squeezed .stage .partial, .squeezed .stage .modes .hint { display: none; }
.squeezed .stage { min-height: 0; }
/* On a phone the stage is scrolled to the top as the keyboard opens (viewport.ts): it takes the whole visible height. */
@media (max-width: 899px) { .squeezed .stage { height: calc(var(--live-vh, 100dvh) - 12px); } }
.squeezed .video-wrap { min-height: 72px; }

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
.diagnostics > details > summary { display: flex; align-items: center; gap: 12px; min-height: 44px; cursor: pointer; list-style: none; border-radius: 6px; }
.diagnostics > details > summary::-webkit-details-marker { display: none; }
.diagnostics > details > summary::before { content: ""; flex: 0 0 auto; width: 0; height: 0; border-left: 8px solid var(--text); border-top: 6px solid transparent; border-bottom: 6px solid transparent; }
.diagnostics > details[open] > summary::before { transform: rotate(90deg); }
.diagnostics summary h2 { margin: 0; }
.diagnostics h3 { margin: 12px 0 6px; }
.latency { display: grid; grid-template-columns: minmax(0, 1fr) auto; gap: 4px 12px; margin: 0; }
.latency dt { color: var(--muted); }
.latency dd { margin: 0; font-variant-numeric: tabular-nums; font-weight: 600; text-align: right; }
.event-log { list-style: none; margin: 0; padding: 0; max-height: 260px; overflow-y: auto; font-size: 0.85rem; border-top: 1px solid var(--line); }
.event-log li { display: grid; grid-template-columns: auto minmax(0, 1fr); gap: 8px; padding: 4px 2px; border-bottom: 1px solid #e3e7ee; }
.event-log time { color: var(--muted); font-variant-numeric: tabular-nums; }
.event-log .text { overflow-wrap: anywhere; }
.event-log .error .text { color: var(--err-text); }
@media (max-width: 480px) {
  main.live { padding: 8px 10px 32px; }
  .stage { height: calc(var(--live-vh, 100dvh) - var(--top-h, 0px) - 16px); gap: 6px; }
  .call-bar { gap: 6px; }
  .state { padding: 4px 10px; }
  .call-buttons { gap: 6px; }
  .call-buttons > button { padding: 8px 12px; }
  .turn-hint { display: none; }
  .modes .hint { display: none; }
  .stage:has(.turn-error:not(:empty)) .captions { display: none; }
}
@media (prefers-reduced-motion: no-preference) { button, .avatar-card { transition: background-color 0.12s, border-color 0.12s; } }
`;
