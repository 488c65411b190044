// The voice picker and the avatar picker by keyboard, in Debian's Chromium against the real portal
// and its local box: the live page's voice picker starts at "the face's own voice", is searched
// (Klingon found, English listed before other languages, constructed languages last), chosen with
// the arrows and Enter, and shows the chosen name whole; arrow keys in the avatar grid move the
// focus without switching, Enter switches; the Voices page's "Your voice" uses the same picker and
// keeps what was saved. Screenshots at 1366x768 and 390x844 go to .cache/e2e/.
import { join } from "node:path";
import type { Page } from "@playwright/test";
import { expect, SHOTS, signIn, test } from "./studio-fixture.ts";

const SIZES = { desktop: { width: 1366, height: 768 }, phone: { width: 390, height: 844 } };

async function shots(page: Page, name: string, at: string): Promise<void> {
  for (const [size, viewport] of Object.entries(SIZES)) {
    await page.setViewportSize(viewport);
    await page.locator(at).evaluate((el) => el.scrollIntoView({ block: "start" }));
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth),
      `${name} at ${size}: no sideways scrolling`,
    ).toBeLessThanOrEqual(viewport.width);
    await page.screenshot({ path: join(SHOTS, `voice-picker-${name}-${size}.png`) });
  }
  await page.setViewportSize(SIZES.desktop);
}

/** The chosen name is drawn whole: not clipped by its box, and inside the viewport. */
async function wholeName(page: Page, scope: string): Promise<void> {
  const chosen = page.locator(`${scope} .vp-chosen`);
  await expect(chosen).toBeInViewport({ ratio: 1 });
  expect(await chosen.evaluate((el) => el.scrollWidth <= el.clientWidth + 1 && getComputedStyle(el).textOverflow !== "ellipsis")).toBe(
    true,
  );
}

test("the live page: a searchable voice picker, and avatars that switch only on Enter", async ({ page, studio }) => {
  test.setTimeout(90_000);
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.setViewportSize(SIZES.desktop);
  await signIn(page, studio);
  await expect(page).toHaveURL(/\/studio$/);
  const voiceCard = page.locator("section[aria-labelledby=voice-h]");
  const search = voiceCard.getByRole("combobox", { name: "Voice", exact: true });

  await test.step("the face's own voice is chosen until a voice is picked", async () => {
    await expect(voiceCard.locator(".vp-chosen")).toHaveText("The face's own voice");
    await expect(page.locator("#provider option:checked")).toHaveText("espeak-ng (built in)");
  });

  await test.step("search: English first, constructed languages last, Klingon found", async () => {
    await search.click();
    const groups = voiceCard.locator(".vp-group");
    await expect(groups.first()).toHaveText(/^English \(\d+\)$/);
    await expect(groups.last()).toHaveText(/^Constructed and fictional languages \(\d+\)$/);
    await search.fill("klingon");
    await expect(voiceCard.locator(".vp-list").getByRole("option")).not.toHaveCount(0);
    for (const o of await voiceCard.locator(".vp-list").getByRole("option").allTextContents()) expect(o.toLowerCase()).toContain("klingon");
    await search.fill("english scotland female");
    const options = voiceCard.locator(".vp-list").getByRole("option");
    await expect(options).toHaveCount(1);
    await shots(page, "live-search", "#voice-h");
  });

  await test.step("arrows and Enter pick; the chosen name is shown whole", async () => {
    await search.press("ArrowDown");
    await search.press("ArrowUp");
    await search.press("Enter");
    await expect(voiceCard.getByRole("listbox")).toBeHidden();
    await expect(voiceCard.locator(".vp-chosen")).toHaveText(/Scotland.*female/);
    await expect(page.locator("#voice")).toHaveValue("en-gb-scotland+f3");
    await wholeName(page, "section[aria-labelledby=voice-h]");
    await page.setViewportSize(SIZES.phone);
    await voiceCard.scrollIntoViewIfNeeded();
    await wholeName(page, "section[aria-labelledby=voice-h]");
    await shots(page, "live-chosen", "#voice-h");
  });

  await test.step("arrow keys move the focus between avatars; only Enter switches", async () => {
    const radios = page.locator("#avatar-picker input[name=avatar]");
    const checked = page.locator("#avatar-picker input[name=avatar]:checked");
    const before = await checked.getAttribute("value");
    await checked.focus();
    await page.keyboard.press("ArrowRight");
    await expect(checked).toHaveAttribute("value", before!);
    const focused = await page.evaluate(() => (document.activeElement as HTMLInputElement).value);
    expect(focused).not.toBe(before);
    await page.keyboard.press("ArrowLeft");
    await page.keyboard.press("ArrowRight");
    await expect(checked).toHaveAttribute("value", before!);
    await page.keyboard.press("Enter");
    await expect(checked).toHaveAttribute("value", focused);
    expect(await radios.count()).toBeGreaterThan(1);
    // The other avatar has no voice picked: it speaks with its own.
    await expect(voiceCard.locator(".vp-chosen")).toHaveText("The face's own voice");
  });
  expect(errors).toEqual([]);
});

test("the Voices page: Your voice uses the same picker and keeps what was saved", async ({ page, studio }) => {
  test.setTimeout(90_000);
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await page.setViewportSize(SIZES.desktop);
  await signIn(page, studio);
  await page.goto(`${studio.url}/studio/voices`);
  const mine = page.locator("section[aria-labelledby=own-voice-h]");
  const search = mine.getByRole("combobox", { name: "Voice", exact: true });
  await expect(search).toBeEnabled();
  await expect(mine.locator(".vp-chosen")).toHaveText("The face's own voice");
  await search.fill("german, female");
  await expect(mine.getByRole("option").first()).toContainText("German");
  await search.press("Enter");
  await expect(page.locator("#own-voice-result")).toContainText("now speaks in your sessions with espeak-ng (built in)");
  await wholeName(page, "section[aria-labelledby=own-voice-h]");
  await shots(page, "voices-own", "#own-voice-h");
  await page.reload();
  await expect(mine.locator(".vp-chosen")).toHaveText(/German.*female/);
  expect(errors).toEqual([]);
});
