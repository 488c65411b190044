// What the live-page specs check the page with: whether an element is wholly on screen without
// scrolling, and screenshots of what shows above the fold at a laptop's and a phone's size.
import { join } from "node:path";
import type { Locator, Page } from "@playwright/test";
import { SHOTS } from "./studio-fixture.ts";

export const LAPTOP = { width: 1366, height: 768 };
export const PHONE = { width: 390, height: 844 };
/** A phone with its keyboard up: the visible height left above the keys. */
export const PHONE_KEYBOARD = { width: 390, height: 480 };

/** "in view" when the element's whole box is inside the viewport, else where it is. */
export async function wholeInView(page: Page, el: Locator): Promise<string> {
  const b = await el.boundingBox();
  const v = page.viewportSize()!;
  if (!b) return "not rendered";
  const inside = b.x >= 0 && b.y >= 0 && b.x + b.width <= v.width + 0.5 && b.y + b.height <= v.height + 0.5;
  return inside
    ? "in view"
    : `out of view: ${Math.round(b.x)},${Math.round(b.y)} ${Math.round(b.width)}x${Math.round(b.height)} in ${v.width}x${v.height}`;
}

/** What shows without scrolling at each size (`.cache/e2e/live-<name>-<w>x<h>.png`); the page is left at the laptop size. */
export async function fold(page: Page, name: string): Promise<void> {
  for (const size of [LAPTOP, PHONE]) {
    await page.setViewportSize(size);
    await page.screenshot({ path: join(SHOTS, `live-${name}-${size.width}x${size.height}.png`) });
  }
  await page.setViewportSize(LAPTOP);
}

export const videoArea = (page: Page) => page.locator("#video-frame");
export const startCall = (page: Page) => page.getByRole("button", { name: "Start call" });
