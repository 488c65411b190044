// Styles of the GPU page only (portal/studio/styles.ts adds them to the one stylesheet).
export const GPU_CSS = `
/* gpu */
.gpu-state { display: flex; align-items: center; gap: 10px; margin: 4px 0 12px; padding: 10px 14px; border-radius: var(--radius); background: #e9edf3; border: 1px solid #b8c0cc; font-weight: 600; }
.gpu-state .dot { flex: 0 0 auto; width: 14px; height: 14px; border-radius: 50%; background: #6b7280; }
.gpu-state[data-state="running"] { background: var(--ok-bg); border-color: var(--ok-line); color: var(--ok-text); }
.gpu-state[data-state="running"] .dot { background: var(--ok-line); }
.gpu-state[data-state="pending"], .gpu-state[data-state="stopping"], .gpu-state[data-state="shutting-down"], .gpu-state[data-state="changing"] { background: var(--warn-bg); border-color: var(--warn-line); color: var(--warn-text); }
.gpu-state[data-state="pending"] .dot, .gpu-state[data-state="stopping"] .dot, .gpu-state[data-state="shutting-down"] .dot, .gpu-state[data-state="changing"] .dot { background: var(--warn-line); }
.gpu-state[data-state="stopped"] .dot { background: #4b5363; border-radius: 2px; }
.gpu-facts { display: grid; grid-template-columns: minmax(0, max-content) minmax(0, 1fr); gap: 6px 16px; margin: 0 0 12px; }
.gpu-facts dt { color: var(--muted); }
.gpu-facts dd { margin: 0; overflow-wrap: anywhere; }
.gpu-facts:empty { display: none; }
@media (max-width: 480px) { .gpu-facts { grid-template-columns: minmax(0, 1fr); gap: 0; } .gpu-facts dd { margin-bottom: 8px; } }
.gpu-launch-choice { display: grid; grid-template-columns: repeat(auto-fit, minmax(200px, 1fr)); gap: 0 12px; }
.gpu-launch-choice[hidden] { display: none; }
.gpu-actions { justify-content: flex-start; }
.gpu-actions button[hidden] { display: none; }
.gpu-diagnostics summary { cursor: pointer; font-weight: 600; padding: 2px 0; }
.gpu-diagnostics[open] summary { margin-bottom: 10px; }
.gpu-checks { list-style: none; margin: 0; padding: 0; }
@media (prefers-reduced-motion: no-preference) { .gpu-state[data-state="changing"] .dot, .gpu-state[data-state="pending"] .dot { animation: gpu-pulse 1.2s ease-in-out infinite; } }
@keyframes gpu-pulse { 50% { opacity: 0.35; } }
`;
