// Styles of the Avatars page (portal/studio/library-page.tsx), and of the live page's avatar
// picker sections (browser/live/avatar-cards.ts: Stock, Yours, Public library). Colours come from the
// base variables (contrast checked there); nothing here may make a 390 px screen scroll sideways.
export const LIBRARY_CSS = `
/* avatars page */
.library [hidden] { display: none !important; }
.library .notices { margin-bottom: 4px; }
.library .actions.start { justify-content: flex-start; margin-top: 12px; }
.library input[type="file"] { padding: 8px; }
.library input[type="checkbox"] { width: 22px; height: 22px; min-height: 0; margin: 1px 0 0; padding: 0; flex: 0 0 auto; accent-color: var(--primary); }
a.button { display: inline-flex; align-items: center; justify-content: center; min-height: 44px; padding: 8px 16px; border-radius: 8px; border: 1px solid #8a93a3; background: var(--surface); color: var(--text); text-decoration: none; font-weight: 600; }
a.button.primary { background: var(--primary); border-color: var(--primary); color: var(--on-primary); }
a.button.primary:hover { background: var(--primary-hover); color: var(--on-primary); }
.camera { margin: 0 0 14px; }
.camera-or { margin-bottom: 6px; }
.camera-panel { margin-top: 10px; max-width: 420px; }
.camera-panel video { display: block; width: 100%; aspect-ratio: 4 / 3; object-fit: cover; background: #0f1420; border-radius: var(--radius); transform: scaleX(-1); }
.camera-buttons { display: flex; flex-wrap: wrap; gap: 8px; margin-top: 8px; }
.chosen { display: flex; flex-wrap: wrap; align-items: center; gap: 12px; margin: 0 0 14px; padding: 10px; border: 1px solid var(--line); border-radius: var(--radius); background: #f8f9fb; }
.chosen img { width: 96px; height: 96px; object-fit: cover; border-radius: 8px; background: #dfe3ea; }
.chosen-facts { flex: 1 1 200px; min-width: 0; }
.chosen-facts p { margin: 0 0 2px; overflow-wrap: anywhere; }
.chosen-name { font-weight: 600; }
.chosen-label { flex: 1 1 100%; margin: 0; }
.chosen-label input { width: 100%; max-width: 32rem; }
.tone-boxes { display: flex; flex-wrap: wrap; gap: 4px 18px; }
.tone-box { display: flex; align-items: center; gap: 8px; min-height: 40px; }
.tone-box label { margin: 0; font-weight: 400; }
.attest { display: flex; align-items: flex-start; gap: 10px; padding: 12px; border: 2px solid var(--warn-line); border-radius: var(--radius); background: var(--warn-bg); }
.attest label { margin: 0; color: var(--warn-text); min-width: 0; }
.attest-hint { margin: 6px 0 0; }
.library-section { margin-top: 24px; }
.library-section > .hint { margin-bottom: 10px; }
.empty-state { padding: 16px; border: 2px dashed var(--line); border-radius: var(--radius); background: var(--surface); }
.empty-state p:last-child { margin-bottom: 0; }
.avatar-list { list-style: none; margin: 0; padding: 0; display: grid; gap: 12px; }
.avatar-item { display: flex; flex-wrap: wrap; gap: 14px; padding: 14px; background: var(--surface); border: 1px solid var(--line); border-radius: var(--radius); min-width: 0; }
.avatar-item[data-state="failed"] { border-left: 5px solid var(--err-line); }
.avatar-item[data-state="preparing"] { border-left: 5px solid var(--warn-line); }
.avatar-still { flex: 0 0 112px; }
.avatar-still img, .avatar-still .no-still { display: block; width: 112px; height: 112px; object-fit: cover; border-radius: 8px; background: #dfe3ea; }
.avatar-main { flex: 1 1 260px; min-width: 0; }
.avatar-name { overflow-wrap: anywhere; margin-bottom: 4px; }
.avatar-badges { display: flex; flex-wrap: wrap; align-items: center; gap: 6px; margin-bottom: 6px; }
.avatar-badges .hint { overflow-wrap: anywhere; min-width: 0; }
.avatar-state { margin-bottom: 10px; overflow-wrap: anywhere; }
.avatar-state.failed { color: var(--err-text); }
.avatar-actions { display: flex; flex-wrap: wrap; gap: 8px; }
.badge.failed { background: var(--err-bg); color: var(--err-text); border-color: var(--err-line); }
.badge.public { background: var(--info-bg); color: var(--info-text); border-color: var(--info-line); }
.clips { margin: 0 0 12px; }
.clips summary { cursor: pointer; min-height: 44px; display: flex; align-items: center; gap: 10px; font-weight: 600; border-radius: 6px; list-style: none; }
.clips summary::-webkit-details-marker { display: none; }
.clips summary::before { content: ""; flex: 0 0 auto; width: 0; height: 0; border-left: 8px solid var(--text); border-top: 6px solid transparent; border-bottom: 6px solid transparent; }
.clips[open] summary::before { transform: rotate(90deg); }
.clips > .hint { margin-bottom: 6px; }
.clip-list { list-style: none; margin: 0 0 8px; padding: 0; display: grid; gap: 4px; }
.clip-list li { display: flex; flex-wrap: wrap; align-items: center; gap: 4px 12px; padding: 4px 0; border-bottom: 1px solid #e3e7ee; }
.clip-list .tone-name { font-weight: 600; min-width: 6.5em; }
.clip-list .clip-state { flex: 1 1 160px; min-width: 0; color: var(--muted); overflow-wrap: anywhere; }
.clip-list li[data-state="failed"] .clip-state { color: var(--err-text); }
.clip-list li[data-state="generated"] .clip-state { color: var(--ok-text); }
.clip-video { display: block; width: 100%; max-width: 320px; aspect-ratio: 1 / 1; background: #0f1420; border-radius: 8px; margin-top: 8px; }
.public-list { list-style: none; margin: 0; padding: 0; display: grid; gap: 8px; }
.public-item { display: flex; flex-wrap: wrap; align-items: center; gap: 4px 10px; padding: 10px 14px; background: var(--surface); border: 1px solid var(--line); border-radius: var(--radius); }
.public-name { font-weight: 600; overflow-wrap: anywhere; min-width: 0; }
.terms-text { max-height: 40vh; overflow-y: auto; white-space: pre-wrap; overflow-wrap: anywhere; padding: 10px 12px; border: 1px solid var(--line); border-radius: 8px; background: #f8f9fb; font-size: 0.9rem; }
.erase-list { margin: 0 0 8px; padding-left: 20px; }
.erase-list li { margin-bottom: 4px; }
@media (max-width: 480px) {
  .avatar-still { flex-basis: 100%; }
  .avatar-actions > * { flex: 1 1 auto; }
}

/* live page: the avatar picker's sections */
.avatar-grid > .picker-head { font-weight: 700; font-size: 0.9rem; color: var(--muted); margin: 6px 0 0; text-transform: uppercase; letter-spacing: 0.04em; }
.avatar-card.unavailable { cursor: default; border-style: dashed; color: var(--muted); }
.avatar-card.unavailable .name { color: var(--text); }
.picker-asked { color: var(--warn-text) !important; font-weight: 600; }
`;
