// Styles of the API reference page only (portal/studio/styles.ts adds them to the one stylesheet).
// Method and status colours keep at least 4.5:1 contrast; long paths and types wrap, so a 390 px
// phone needs no sideways scrolling outside the field tables' own scroller.
export const DOCS_CSS = `
/* docs */
.doc-page { max-width: 1100px; }
.doc-raw { margin: 4px 0 16px; }
.doc-contents { background: var(--surface); border: 1px solid var(--line); border-radius: var(--radius); padding: 10px 16px; margin: 0 0 20px; }
.doc-contents > ul { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 8px 32px; }
.doc-contents > ul > li > a { font-weight: 600; }
.doc-contents ul ul { list-style: none; margin: 4px 0 0; padding: 0; columns: 2 10rem; column-gap: 24px; }
.doc-count { color: var(--muted); font-size: 0.85rem; }
.doc-plane { margin: 0 0 28px; }
.doc-plane > h2 { font-size: 1.4rem; border-bottom: 2px solid var(--line); padding-bottom: 4px; margin-bottom: 12px; }
.doc-group { margin: 0 0 18px; }
.doc-group > h3 { font-size: 1.05rem; color: var(--muted); text-transform: uppercase; letter-spacing: 0.04em; margin: 0 0 6px; }
.doc-op { background: var(--surface); border: 1px solid var(--line); border-radius: 8px; margin: 0 0 6px; }
.doc-op > summary { cursor: pointer; padding: 8px 12px; display: flex; flex-wrap: wrap; align-items: baseline; gap: 4px 10px; list-style-position: outside; }
.doc-op > summary::-webkit-details-marker { display: none; }
.doc-op[open] > summary { border-bottom: 1px solid var(--line); }
.doc-method { display: inline-block; min-width: 4.2rem; text-align: center; font: 700 0.8rem/1.6 ui-monospace, Menlo, Consolas, monospace; border-radius: 4px; padding: 0 6px; color: #fff; background: #4b5363; }
.doc-get, .doc-head { background: #1d4ed8; }
.doc-post { background: #067647; }
.doc-put, .doc-patch { background: #9a3412; }
.doc-delete { background: #b42318; }
.doc-path { font-weight: 600; }
.doc-summary { color: var(--muted); flex: 1 1 16rem; min-width: 0; }
.doc-access { font-size: 0.8rem; border: 1px solid var(--line); border-radius: 999px; padding: 0 8px; color: var(--muted); white-space: nowrap; }
.doc-body { padding: 8px 12px 12px; }
.doc-body h5 { font-size: 0.9rem; margin: 8px 0 4px; }
.doc-params { margin: 0; padding-left: 20px; }
.doc-answer p { margin: 6px 0 4px; display: flex; flex-wrap: wrap; gap: 4px 8px; align-items: baseline; }
.doc-status { font-family: ui-monospace, Menlo, Consolas, monospace; }
.doc-s2 { color: var(--ok-text); } .doc-s3 { color: var(--info-text); } .doc-s4, .doc-s5 { color: var(--err-text); }
.doc-code { background: var(--err-bg); color: var(--err-text); border-radius: 4px; padding: 0 4px; }
.doc-ctype, .doc-optional { color: var(--muted); font-size: 0.85rem; }
.doc-table-wrap { overflow-x: auto; max-width: 100%; }
.doc-fields { border-collapse: collapse; width: 100%; font-size: 0.9rem; table-layout: fixed; }
.doc-fields th:nth-child(1) { width: 34%; } .doc-fields th:nth-child(2) { width: 30%; }
.doc-fields code { overflow-wrap: anywhere; }
.doc-fields th, .doc-fields td { text-align: left; vertical-align: top; padding: 3px 10px 3px 0; border-bottom: 1px solid #e3e7ed; }
.doc-fields th { color: var(--muted); font-weight: 600; }
.doc-envelopes li { margin-bottom: 4px; }
@media (max-width: 720px) {
  .doc-fields th:nth-child(1) { width: 40%; } .doc-fields th:nth-child(2) { width: 32%; }
  .doc-contents ul ul { columns: 1; }
}
`;
