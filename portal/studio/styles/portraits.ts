// Styles of the Portraits page only (portal/studio/styles.ts adds them to the one stylesheet).
export const PORTRAITS_CSS = ``;
