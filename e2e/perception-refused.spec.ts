// Perception end to end (issue 27 item 4): a refused camera or screen share is explained in words
// on the live studio page. Chromium answers every camera and screen request "Permission denied"
// (its fake permission UI set to deny), as after a person blocked them in the site settings.
import { launchWith } from "./chromium.ts";
import { expect, signIn, test } from "./studio-fixture.ts";

test.use({ launchOptions: launchWith("--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream=deny") });

test("a refused camera or screen is explained in words, and the toggles stay off", async ({ page, studio }) => {
  await signIn(page, studio, "refused@example.com");
  const notice = page.locator('[data-notice="camera"]');
  const camera = page.getByRole("button", { name: "Camera", exact: true });
  const screen = page.getByRole("button", { name: "Share screen" });
  await camera.click();
  await expect(notice).toContainText("The camera is blocked for this page. Allow it in the browser's site settings");
  await expect(camera).toHaveAttribute("aria-pressed", "false");
  await screen.click();
  await expect(notice).toContainText("Screen sharing did not start: the screen picker was closed, or sharing was refused.");
  await expect(screen).toHaveAttribute("aria-pressed", "false");
  await expect(page.locator("#camera-preview")).toBeHidden();
});
