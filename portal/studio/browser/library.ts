// The Avatars page's script (portal/studio/library-page.tsx renders its skeleton).
export function startLibrary(): void {}
