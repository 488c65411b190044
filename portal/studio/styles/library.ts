// Styles of the Avatars page only (portal/studio/styles.ts adds them to the one stylesheet).
export const LIBRARY_CSS = ``;
