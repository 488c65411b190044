// The GPU page's script (portal/studio/gpu-page.tsx renders its skeleton).
export function startGpu(): void {}
