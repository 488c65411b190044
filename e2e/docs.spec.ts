// The API reference page end to end in Debian's Chromium against the real portal and its local box:
// reached from the studio's navigation, it lists the portal's and the running box's operations,
// an operation opens without any script, nothing sticks out sideways at 1366x768 or 390x844, and
// the page loads nothing from another origin. Screenshots: `.cache/e2e/docs-<size>.png`.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { expect, SHOTS, signIn, test } from "./studio-fixture.ts";

const SIZES = { desktop: { width: 1366, height: 768 }, phone: { width: 390, height: 844 } } as const;

test("the API reference lists both planes, opens an operation and fits a laptop and a phone", async ({ page, studio }) => {
  const errors: string[] = [];
  const foreign: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("request", (r) => {
    if (/^https?:/.test(r.url()) && !r.url().startsWith(studio.url)) foreign.push(r.url());
  });
  await page.setViewportSize(SIZES.desktop);
  await signIn(page, studio, "reader@example.com");
  await page.getByRole("link", { name: "API", exact: true }).click();
  await expect(page).toHaveURL(/\/docs$/);
  await expect(page.getByRole("heading", { level: 1, name: "API reference" })).toBeVisible();

  // The box section is read from the running box; the local box may still be starting.
  await expect(async () => {
    await page.reload();
    await expect(page.locator("#box-title")).toBeVisible();
    await expect(page.locator('[id="box-post-api-settings"]')).toHaveCount(1, { timeout: 1000 });
  }).toPass({ timeout: 60_000 });
  const boxDoc = (await (await page.request.get(`${studio.url}/openapi.json`)).json()) as { paths: Record<string, object> };
  for (const path of Object.keys(boxDoc.paths)) await expect(page.locator(".doc-path", { hasText: path }).first(), path).toBeAttached();
  await expect(page.locator('[id="portal-post-auth-keys"]')).toHaveCount(1);

  const keys = page.locator('[id="portal-post-auth-keys"]');
  await keys.locator("summary").click();
  await expect(keys.getByText("key_limit_reached")).toBeVisible();
  await expect(keys.locator("td code", { hasText: "key.secret" })).toBeVisible();

  mkdirSync(SHOTS, { recursive: true });
  for (const [size, viewport] of Object.entries(SIZES)) {
    await page.setViewportSize(viewport);
    expect(await page.evaluate(() => document.documentElement.scrollWidth), `no sideways scrolling at ${size}`).toBeLessThanOrEqual(
      viewport.width,
    );
    await page.evaluate(() => window.scrollTo(0, 0));
    await page.screenshot({ path: join(SHOTS, `docs-${size}.png`) });
  }
  await keys.scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(SHOTS, "docs-phone-operation.png") });
  await page.setViewportSize(SIZES.desktop);
  await keys.scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(SHOTS, "docs-desktop-operation.png") });
  const settings = page.locator('[id="box-post-api-settings"]');
  await settings.locator("summary").click();
  await settings.scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(SHOTS, "docs-desktop-box-settings.png") });
  expect(foreign).toEqual([]);
  expect(errors).toEqual([]);
});
