// Styles of the Voices page only (portal/studio/styles.ts adds them to the one stylesheet).
export const VOICES_CSS = ``;
