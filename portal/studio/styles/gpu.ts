// Styles of the GPU page only (portal/studio/styles.ts adds them to the one stylesheet).
export const GPU_CSS = ``;
