// Perception end to end (issue 27 item 5): a page's words reach a vision model readable. The test
// opens a second tab with a made-up sentence in 56 px type, one word of it drawn at random per
// run, and the studio's Share screen toggle shares that tab through Chromium's own tab capture
// (`--auto-select-tab-capture-source-by-title`, e2e/chromium.ts `launchSharingTab`): no stand-in
// for getDisplayMedia, so the picture goes the user's way, browser capture -> WebRTC VP8 -> the
// box's decoder -> the JPEG in the fake OpenAI-protocol model's request. Tesseract (e2e/ocr.ts)
// must read the random word in that JPEG: the words survive the encoder and the box's 768 px
// scaling well enough for a model to read them. This needs launch flags of its own (a worker of its
// own), hence its own file beside perception-screen.spec.ts.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import sharp from "sharp";
import { launchSharingTab } from "./chromium.ts";
import { readText } from "./ocr.ts";
import { chatTurn, pictureIn } from "./perception-turns.ts";
import { expect, SHOTS, signIn, test } from "./studio-fixture.ts";

const SHARED_TITLE = "Page shared with the avatar";

test.use({
  studioEnv: { BOX_VISION_MODELS: "fake-chat" },
  launchOptions: launchSharingTab(SHARED_TITLE),
});

/** A made-up word of three syllables (no i, l, o: letters OCR confuses with digits or each other), new each run. */
function randomWord(): string {
  const pick = (letters: string) => letters[Math.floor(Math.random() * letters.length)];
  return Array.from({ length: 3 }, () => pick("bdfgkmnprstvz") + pick("aeu")).join("");
}

/** The shared page: black on white, 56 px, the size a person would put on screen to show someone. */
function sharedPage(word: string): string {
  return `<!doctype html><title>${SHARED_TITLE}</title>
<body style="margin:48px;background:#fff;color:#000;font:bold 56px/1.3 sans-serif">
<p>Dear avatar, the code word today is ${word}.</p><p>Please read it back to me.</p></body>`;
}

test("Share screen of a tab with text: the model's picture shows the page's words, readable", async ({ page, context, studio }) => {
  test.setTimeout(90_000);
  mkdirSync(SHOTS, { recursive: true });
  const word = randomWord();
  const shared = await context.newPage();
  await shared.setViewportSize({ width: 1280, height: 720 });
  await shared.setContent(sharedPage(word));

  await signIn(page, studio, "shared-page@example.com");
  await page.bringToFront();
  const screenBtn = page.getByRole("button", { name: "Share screen" });
  await screenBtn.click();
  await expect(screenBtn).toHaveAttribute("aria-pressed", "true");
  // The preview plays the tab itself (a tab's capture has the tab's size).
  await expect
    .poll(() => page.locator("#camera-preview").evaluate((v: HTMLVideoElement) => `${v.videoWidth}x${v.videoHeight}`))
    .toBe("1280x720");

  await page.getByRole("button", { name: "Start call" }).click();
  await expect(page.locator("#call-state")).toHaveAttribute("data-state", "listening", { timeout: 30_000 });

  // Turns until the picture the model gets reads as the word (the sender starts small while its bandwidth grows).
  const seen: string[] = [];
  await expect
    .poll(
      async () => {
        const jpeg = pictureIn(await chatTurn(page, studio, "What does my screen say?"));
        if (!jpeg) return "no picture";
        writeFileSync(join(SHOTS, "perception-screen-text-sent.jpg"), jpeg);
        const { width, height } = await sharp(jpeg).metadata();
        const text = (await readText(jpeg)).replace(/\s+/g, " ").trim();
        seen.push(`${width}x${height}: ${text}`);
        return text.toLowerCase();
      },
      { message: `the code word "${word}" read in the model's picture`, timeout: 45_000, intervals: [500] },
    )
    .toContain(word);
  test.info().annotations.push({ type: "pictures read", description: seen.join(" | ") });
});
