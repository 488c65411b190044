// Styles of the Portraits page only (portal/studio/styles.ts adds them to the one stylesheet).
// Two columns from 900 px (describe | the portrait), one below; the list wraps to the width.
export const PORTRAITS_CSS = `
/* portraits */
.portrait-layout { display: grid; grid-template-columns: minmax(0, 1fr); gap: var(--gap); align-items: start; }
@media (min-width: 900px) { .portrait-layout { grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); } }
.portrait-actions { justify-content: flex-start; }
.portrait-examples-h { margin-top: 16px; }
.portrait-examples { list-style: none; margin: 0 0 12px; padding: 0; display: flex; flex-wrap: wrap; gap: 8px; }
.portrait-examples li { min-width: 0; max-width: 100%; }
.portrait-examples button { text-align: left; font-size: 0.9rem; overflow-wrap: anywhere; max-width: 100%; }
.portrait-vocabulary summary { cursor: pointer; padding: 6px 0; font-weight: 600; }
.portrait-vocabulary dl { display: grid; grid-template-columns: minmax(0, auto) minmax(0, 1fr); gap: 4px 12px; margin: 6px 0 10px; }
.portrait-vocabulary dt { font-weight: 600; }
.portrait-vocabulary dd { margin: 0; overflow-wrap: anywhere; }
@media (max-width: 480px) { .portrait-vocabulary dl { grid-template-columns: minmax(0, 1fr); } .portrait-vocabulary dd { margin-bottom: 6px; } }
.portrait-frame { position: relative; width: 100%; max-width: 420px; aspect-ratio: 1 / 1; margin: 0 auto 10px; border-radius: var(--radius); background: #e3e7ee; border: 1px solid var(--line); overflow: hidden; display: flex; align-items: center; justify-content: center; }
.portrait-frame img { width: 100%; height: 100%; object-fit: cover; display: block; }
.portrait-frame img[hidden] { display: none; }
.portrait-empty { margin: 0; padding: 24px; text-align: center; color: var(--muted); }
.portrait-empty[hidden] { display: none; }
#current[aria-busy="true"] .portrait-frame img { opacity: 0.55; }
.portrait-facts { overflow-wrap: anywhere; }
.portrait-facts q { font-style: italic; }
.portrait-make { margin-top: 14px; padding-top: 12px; border-top: 1px solid var(--line); }
.portrait-make > button { margin-bottom: 4px; }
.portrait-made { display: flex; flex-wrap: wrap; gap: 8px 20px; margin-top: 8px; font-weight: 600; }
.portrait-made[hidden] { display: none; }
.portrait-made-list { margin-top: 8px; }
.portrait-list { list-style: none; margin: 8px 0 0; padding: 0; display: grid; grid-template-columns: repeat(auto-fill, minmax(260px, 1fr)); gap: 10px; }
@media (max-width: 480px) { .portrait-list { grid-template-columns: minmax(0, 1fr); } }
.portrait-pick { display: flex; align-items: center; gap: 12px; width: 100%; text-align: left; padding: 8px; background: var(--surface); border: 2px solid var(--line); border-radius: var(--radius); }
.portrait-pick[aria-pressed="true"] { border-color: var(--primary); background: var(--info-bg); color: var(--text); }
.portrait-pick img { flex: 0 0 auto; width: 72px; height: 72px; object-fit: cover; border-radius: 6px; background: #dfe3ea; }
.portrait-pick-text { display: flex; flex-direction: column; min-width: 0; gap: 2px; }
.portrait-pick-desc { overflow-wrap: anywhere; font-size: 0.9rem; line-height: 1.3; display: -webkit-box; -webkit-line-clamp: 2; -webkit-box-orient: vertical; overflow: hidden; }
.portrait-pick-state { color: var(--muted); font-size: 0.85rem; }
.portrait-approve-thumb { display: block; width: 160px; height: 160px; object-fit: cover; border-radius: 8px; border: 1px solid var(--line); margin: 0 auto; }
`;
