// The Portraits page's script (portal/studio/portraits-page.tsx renders its skeleton).
export function startPortraits(): void {}
