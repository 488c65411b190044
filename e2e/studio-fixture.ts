// The studio's end to end fixture: the real portal (`bun portal/main.ts`) with its local box (its
// model a local fake speaking OpenAI's protocol), one per worker; sign-in through the link the
// portal prints on its console (no mail server); screenshots at desktop and phone size.
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { test as base, expect, type Page } from "@playwright/test";
import { FakeOpenAi } from "../box/llm/testing/fake-openai.ts";
import { startPortalProcess, type PortalProcess } from "../portal/testing/portal-process.ts";

export const ROOT = resolve(import.meta.dirname, "..");
export const SHOTS = join(ROOT, ".cache/e2e");
export const ADMIN = "admin@example.com";
export const SIZES = { desktop: { width: 1280, height: 800 }, phone: { width: 390, height: 844 } } as const;

export interface Studio {
  url: string;
  portal: PortalProcess;
  model: FakeOpenAi;
  /** The portal's data folder (its database, outbox and the local box's volume). */
  dir: string;
}

/** `studio`: a portal with PORTAL_GPU_DRIVER=local and ADMIN as its administrator, per worker. */
export const test = base.extend<{}, { studio: Studio }>({
  studio: [
    async ({}, use) => {
      const dir = mkdtempSync(join(tmpdir(), "studio-e2e-"));
      const model = await FakeOpenAi.start({ models: [{ id: "fake-chat" }], defaultScript: [{ text: "Yes." }] });
      const portal = await startPortalProcess({
        BOX_OPENAI_BASE_URL: model.url,
        PORTAL_DB_URL: pathToFileURL(join(dir, "portal.db")).href,
        PORTAL_DATA_DIR: dir,
        PORTAL_MAIL_OUTBOX: join(dir, "outbox"),
        PORTAL_BOX_DATA_DIR: join(dir, "box"),
        PORTAL_GPU_DRIVER: "local",
        PORTAL_ADMIN_EMAILS: ADMIN,
      });
      await use({ url: portal.url, portal, model, dir });
      await portal.stop();
      await model.close();
      rmSync(dir, { recursive: true, force: true });
    },
    { scope: "worker", timeout: 90_000 },
  ],
});
export { expect };

/** Full-page screenshots at both sizes (`.cache/e2e/studio-<name>-<size>.png`); the page is left at desktop size. */
export async function shoot(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  for (const [size, viewport] of Object.entries(SIZES)) {
    await page.setViewportSize(viewport);
    await page.waitForTimeout(150);
    // Nothing may stick out sideways at either size.
    expect(await page.evaluate(() => document.documentElement.scrollWidth), `${name} at ${size}: no sideways scrolling`).toBeLessThanOrEqual(viewport.width);
    await page.screenshot({ path: join(SHOTS, `studio-${name}-${size}.png`), fullPage: true });
  }
  await page.setViewportSize(SIZES.desktop);
}

/** The link the portal printed on its console for `email` (the outbox mailer's log line). */
export async function printedLink(portal: PortalProcess, email: string): Promise<string> {
  let link = "";
  await expect
    .poll(() => {
      const line = [...portal.stderr].reverse().find((l) => l.includes(`sign-in mail for ${email}`));
      link = /sign-in link: (\S+)/.exec(line ?? "")?.[1] ?? "";
      return link;
    }, { message: "the sign-in link on the portal's console" })
    .toMatch(/\/auth\/callback\?token=/);
  return link;
}

/** Signs `email` in on `page` through the sign-in form and the printed link; the page ends on /studio. */
export async function signIn(page: Page, studio: Studio, email: string = ADMIN): Promise<void> {
  await page.goto(`${studio.url}/studio/sign-in`);
  await page.getByLabel("E-mail address").fill(email);
  await page.getByRole("button", { name: "Send me a sign-in link" }).click();
  await page.locator("#sign-in-sent").waitFor();
  await page.goto(await printedLink(studio.portal, email));
  await expect(page).toHaveURL(/\/studio$/);
}
