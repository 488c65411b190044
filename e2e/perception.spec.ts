// Perception end to end (issue 27 items 4 and 5): the live studio's Camera toggle sends Chromium's
// fake camera, fed from a Y4M that ffmpeg made from a real photo (face-api's demo sample6, one
// person), to the portal's local box; on a typed turn the fake OpenAI-protocol model (listed in
// BOX_VISION_MODELS) receives an `image_url` JPEG of that photo's shape, and its system prompt the
// box's own face models' line that the person is there; turned off, the pictures stop. Screenshots
// at 1366x768 and 390x844 with the camera's preview showing. Share screen: perception-screen.spec.ts
// (this file's fake camera would stand in for the screen too).
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Page } from "@playwright/test";
import sharp from "sharp";
import { singlePhoto } from "../box/faces/testing/photos.ts";
import type { RecordedRequest } from "../box/llm/testing/script.ts";
import { chatTurn, pictureIn, systemOf } from "./perception-turns.ts";
import { launchWith } from "./chromium.ts";
import { expect, SHOTS, signIn, test } from "./studio-fixture.ts";

const PHOTO = { width: 520, height: 900 };

/** A 2 s Y4M (10 frames/s, yuv420p) of singlePhoto(), which Chromium's fake camera plays in a loop. */
async function makeCameraY4m(): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), "studio-camera-"));
  writeFileSync(join(dir, "face.jpg"), await singlePhoto());
  const out = join(dir, "face.y4m");
  const r = spawnSync("ffmpeg", [
    "-loglevel",
    "error",
    "-y",
    "-loop",
    "1",
    "-i",
    join(dir, "face.jpg"),
    "-t",
    "2",
    "-r",
    "10",
    "-pix_fmt",
    "yuv420p",
    out,
  ]);
  if (r.status !== 0) throw new Error(`ffmpeg failed: ${r.stderr}`);
  return out;
}

// Made before the browser starts (its path is a launch flag); removed when the worker ends.
const CAMERA_Y4M = await makeCameraY4m();
process.on("exit", () => rmSync(join(CAMERA_Y4M, ".."), { recursive: true, force: true }));

test.use({
  // The fixture's fake model is "fake-chat": the box sends it the picture.
  studioEnv: { BOX_VISION_MODELS: "fake-chat" },
  launchOptions: launchWith("--use-fake-device-for-media-stream", `--use-file-for-fake-video-capture=${CAMERA_Y4M}`),
});

/** Full-page screenshots at 1366x768 and 390x844 (`.cache/e2e/studio-<name>-<size>.png`); no sideways scrolling at either. */
async function shootSizes(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  for (const [size, viewport] of Object.entries({ desktop: { width: 1366, height: 768 }, phone: { width: 390, height: 844 } })) {
    await page.setViewportSize(viewport);
    // The preview has painted a frame at the new size.
    await page.evaluate(
      () =>
        new Promise<void>((r) => {
          const v = document.getElementById("camera-preview") as HTMLVideoElement;
          v.requestVideoFrameCallback(() => r());
          setTimeout(r, 500);
        }),
    );
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth),
      `${name} at ${size}: no sideways scrolling`,
    ).toBeLessThanOrEqual(viewport.width);
    await expect(page.locator("#camera-preview")).toBeInViewport();
    await page.screenshot({ path: join(SHOTS, `studio-${name}-${size}.png`), fullPage: true });
  }
  await page.setViewportSize({ width: 1366, height: 768 });
}

test("the camera: the vision model gets the face picture and the embedded line says the person is there", async ({
  page,
  context,
  studio,
}) => {
  test.setTimeout(120_000);
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await context.grantPermissions(["camera"], { origin: studio.url });
  await page.setViewportSize({ width: 1366, height: 768 });
  await signIn(page, studio, "camera@example.com");

  // Off at first: the page says what would be sent where.
  const cameraBtn = page.getByRole("button", { name: "Camera", exact: true });
  await expect(cameraBtn).toHaveAttribute("aria-pressed", "false");
  await expect(page.locator("#camera-status")).toContainText("goes to the avatar's box only");
  await expect(page.locator("#camera-preview")).toBeHidden();

  // Turned on before the call: the connect carries it.
  await cameraBtn.click();
  await expect(cameraBtn).toHaveAttribute("aria-pressed", "true");
  await expect(page.locator("#camera-status")).toContainText("The avatar sees your camera");
  const preview = page.locator("#camera-preview");
  await expect(preview).toBeVisible();
  await expect
    .poll(() => preview.evaluate((v: HTMLVideoElement) => `${v.videoWidth}x${v.videoHeight}`))
    .toBe(`${PHOTO.width}x${PHOTO.height}`);

  await page.getByRole("button", { name: "Start call" }).click();
  await expect(page.locator("#call-state")).toHaveAttribute("data-state", "listening", { timeout: 30_000 });
  await expect(page.locator("#camera-status")).toContainText("The avatar sees your camera");
  await shootSizes(page, "live-camera");

  // The box's face models look about once a second: turns are sent until one carries their line.
  let rec: RecordedRequest | undefined;
  await expect
    .poll(
      async () => {
        rec = await chatTurn(page, studio, "What do you think of my smile?");
        return systemOf(rec);
      },
      { message: "the system prompt carries the face models' line", timeout: 40_000, intervals: [1000] },
    )
    .toMatch(/What the box's camera sees now: The person is looking/);
  const jpeg = pictureIn(rec);
  expect(jpeg, "an image_url data URL in the request").not.toBeNull();
  const meta = await sharp(jpeg!).metadata();
  mkdirSync(SHOTS, { recursive: true });
  writeFileSync(join(SHOTS, "perception-camera-sent.jpg"), jpeg!);
  expect(meta.format).toBe("jpeg");
  // The photo, portrait, its longest side at most 768 px.
  expect(Math.max(meta.width!, meta.height!)).toBeLessThanOrEqual(768);
  expect(meta.width! / meta.height!).toBeCloseTo(PHOTO.width / PHOTO.height, 1);
  // It is the photo itself: its small grey copy is close to the source's.
  const grey = async (b: Buffer | Uint8Array) => sharp(b).resize(16, 16, { fit: "fill" }).greyscale().raw().toBuffer();
  const [sent, source] = await Promise.all([grey(jpeg!), grey(await singlePhoto())]);
  const diff = sent.reduce((s, v, i) => s + Math.abs(v - source[i]!), 0) / sent.length;
  test.info().annotations.push({
    type: "picture sent",
    description: `${meta.width}x${meta.height}, mean grey difference to the photo ${diff.toFixed(1)}/255`,
  });
  expect(diff).toBeLessThan(20);

  // Off mid-call: the next turn carries no picture, and the call stayed on.
  await cameraBtn.click();
  await expect(cameraBtn).toHaveAttribute("aria-pressed", "false");
  await expect(preview).toBeHidden();
  // The box forgets a picture older than 3 s.
  await expect.poll(async () => pictureIn(await chatTurn(page, studio, "And now?")), { timeout: 30_000, intervals: [1000] }).toBeNull();
  expect(errors).toEqual([]);
});
