// Perception end to end (issue 27 items 4 and 5): the live studio's Share screen toggle sends
// Chromium's fake screen (a 1280x720 test pattern: --use-fake-ui-for-media-stream picks the screen,
// and headless Chromium has only the fake device's; perception-screen-text.spec.ts shares a real
// tab instead) to the portal's local box, which shows a vision model (the fake OpenAI-protocol model,
// listed in BOX_VISION_MODELS) a picture of a screen's shape with the person's words. Camera and
// screen share one slot: turning the screen on turns the camera off; the browser's own end of the
// share turns the toggle off. A screen swapped in mid-call after the camera keeps the screen's
// shape (the box's decoder starts afresh on a keyframe of another size).
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import sharp from "sharp";
import { launchWith } from "./chromium.ts";
import { chatTurn, pictureIn } from "./perception-turns.ts";
import { expect, SHOTS, signIn, test, type Studio } from "./studio-fixture.ts";

test.use({
  studioEnv: { BOX_VISION_MODELS: "fake-chat" },
  launchOptions: launchWith("--use-fake-device-for-media-stream"),
});

/** Chat turns until the model gets a 16:9 picture at most 768 px wide (Chromium's fake screen is 1280x720; the sender may scale it down while its bandwidth grows). */
async function screenPictureArrives(page: Page, studio: Studio): Promise<void> {
  let size = "no picture";
  await expect
    .poll(
      async () => {
        const jpeg = pictureIn(await chatTurn(page, studio, "What is on my screen?"));
        if (!jpeg) return false;
        writeFileSync(join(SHOTS, "perception-screen-sent.jpg"), jpeg);
        const meta = await sharp(jpeg).metadata();
        size = `${meta.width}x${meta.height}`;
        return meta.width! <= 768 && Math.abs(meta.width! / meta.height! - 16 / 9) < 0.03;
      },
      { message: "a 16:9 picture of at most 768 px wide", timeout: 30_000, intervals: [1000] },
    )
    .toBe(true);
  test.info().annotations.push({ type: "screen picture sent", description: size });
}

test("Share screen: the camera gives way, the model gets a screen-shaped picture, and the browser's stop turns it off", async ({
  page,
  context,
  studio,
}) => {
  test.setTimeout(120_000);
  await context.grantPermissions(["camera"], { origin: studio.url });
  await signIn(page, studio, "screen@example.com");
  mkdirSync(SHOTS, { recursive: true });
  const cameraBtn = page.getByRole("button", { name: "Camera", exact: true });
  const screenBtn = page.getByRole("button", { name: "Share screen" });

  // Camera, then the screen: one slot, the camera turns off.
  await cameraBtn.click();
  await expect(cameraBtn).toHaveAttribute("aria-pressed", "true");
  await screenBtn.click();
  await expect(screenBtn).toHaveAttribute("aria-pressed", "true");
  await expect(cameraBtn).toHaveAttribute("aria-pressed", "false");
  await expect(page.locator("#camera-status")).toContainText("The avatar sees your shared screen");
  await expect
    .poll(() => page.locator("#camera-preview").evaluate((v: HTMLVideoElement) => `${v.videoWidth}x${v.videoHeight}`))
    .toBe("1280x720");

  await page.getByRole("button", { name: "Start call" }).click();
  await expect(page.locator("#call-state")).toHaveAttribute("data-state", "listening", { timeout: 30_000 });
  await screenPictureArrives(page, studio);

  // The browser's own "Stop sharing" ends the track (stop() alone fires no event, so it is sent as the browser does): the toggle follows.
  await page.evaluate(() => {
    const v = document.getElementById("camera-preview") as HTMLVideoElement;
    const track = (v.srcObject as MediaStream).getVideoTracks()[0]!;
    track.stop();
    track.dispatchEvent(new Event("ended"));
  });
  await expect(screenBtn).toHaveAttribute("aria-pressed", "false");
  await expect(page.locator("#camera-preview")).toBeHidden();
});

test("the screen shared mid-call after the camera keeps the screen's shape", async ({ page, context, studio }) => {
  test.setTimeout(120_000);
  await context.grantPermissions(["camera"], { origin: studio.url });
  await signIn(page, studio, "screen@example.com");
  mkdirSync(SHOTS, { recursive: true });
  await page.getByRole("button", { name: "Start call" }).click();
  await expect(page.locator("#call-state")).toHaveAttribute("data-state", "listening", { timeout: 30_000 });
  await page.getByRole("button", { name: "Camera", exact: true }).click();
  // The box has the camera's picture (Chromium's fake camera, 640x480) before the screen replaces it.
  await expect
    .poll(async () => pictureIn(await chatTurn(page, studio, "Can you see me?")) !== null, { timeout: 30_000, intervals: [1000] })
    .toBe(true);
  await page.getByRole("button", { name: "Share screen" }).click();
  await expect(page.getByRole("button", { name: "Share screen" })).toHaveAttribute("aria-pressed", "true");
  await screenPictureArrives(page, studio);
});
