// The Avatars page's script (portal/studio/library-page.tsx renders its skeleton); its parts are
// in ./library/.
export { startLibrary } from "./library/index.ts";
