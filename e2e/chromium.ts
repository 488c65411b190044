// Debian's Chromium for the e2e runs (never a downloaded browser), with the flags measured to work
// on this machine (docs/architecture.md "Browsers in the tests"). Specs that need more (a fake
// camera, a microphone fed from a file) pass `launchWith(...)` to `test.use()`.

export const CHROMIUM = "/usr/bin/chromium";

export const CHROMIUM_ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--autoplay-policy=no-user-gesture-required",
  "--use-fake-ui-for-media-stream",
];

/** Launch options with the usual flags plus `extra`. */
export function launchWith(...extra: string[]): { executablePath: string; args: string[] } {
  return { executablePath: CHROMIUM, args: [...CHROMIUM_ARGS, ...extra] };
}
