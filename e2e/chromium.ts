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

/**
 * Launch options whose getDisplayMedia shares the open tab titled `title` (a real tab capture).
 * --use-fake-ui-for-media-stream is left out: it answers the picker itself with the screen
 * (`screen:0:0`, which headless Chromium cannot open: "Could not start video source"), and the
 * auto-select flag is only read by the real picker.
 */
export function launchSharingTab(title: string): { executablePath: string; args: string[] } {
  const args = CHROMIUM_ARGS.filter((a) => a !== "--use-fake-ui-for-media-stream");
  return { executablePath: CHROMIUM, args: [...args, `--auto-select-tab-capture-source-by-title=${title}`] };
}
