// The Voices page's script (portal/studio/voices-page.tsx renders its skeleton).
export function startVoices(): void {}
