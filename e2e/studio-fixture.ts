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

/**
 * `studio`: a portal with PORTAL_GPU_DRIVER=local and ADMIN as its administrator, per worker.
 * `studioEnv` (a worker option, `test.use({ studioEnv })`) adds to or overrides its environment
 * (BOX_* variables reach its local box).
 */
export const test = base.extend<{}, { studio: Studio; studioEnv: Record<string, string> }>({
  studioEnv: [{}, { scope: "worker", option: true }],
  studio: [
    async ({ studioEnv }, use) => {
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
        ...studioEnv,
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
    // A playing <video> is captured once it has painted a frame at the new size.
    await page.evaluate(() => {
      const v = document.querySelector("video");
      if (!v?.videoWidth || v.paused) return;
      return new Promise<void>((r) => {
        v.requestVideoFrameCallback(() => r());
        setTimeout(r, 500);
      });
    });
    // Nothing may stick out sideways at either size.
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth),
      `${name} at ${size}: no sideways scrolling`,
    ).toBeLessThanOrEqual(viewport.width);
    await page.screenshot({ path: join(SHOTS, `studio-${name}-${size}.png`), fullPage: true });
  }
  await page.setViewportSize(SIZES.desktop);
}

const mailLines = (portal: PortalProcess, email: string) => portal.stderr.filter((l) => l.includes(`sign-in mail for ${email}`));

/**
 * The link the portal printed on its console for `email` (the outbox mailer's log line): the
 * newest, or with `after` (a count of earlier mails) one newer than those — a rate-limited request
 * (5 links per address per 15 minutes) prints none, and this fails instead of reusing a spent link.
 */
export async function printedLink(portal: PortalProcess, email: string, after = 0): Promise<string> {
  let link = "";
  await expect
    .poll(
      () => {
        const lines = mailLines(portal, email);
        link = lines.length > after ? (/sign-in link: (\S+)/.exec(lines.at(-1)!)?.[1] ?? "") : "";
        return link;
      },
      { message: `a new sign-in link for ${email} on the portal's console (at most 5 per address per 15 minutes)` },
    )
    .toMatch(/\/auth\/callback\?token=/);
  return link;
}

/** Signs `email` in on `page` through the sign-in form and the printed link; the page ends on /studio. */
export async function signIn(page: Page, studio: Studio, email: string = ADMIN): Promise<void> {
  await page.goto(`${studio.url}/studio/sign-in`);
  const before = mailLines(studio.portal, email).length;
  await page.getByLabel("E-mail address").fill(email);
  await page.getByRole("button", { name: "Send me a sign-in link" }).click();
  await page.locator("#sign-in-sent").waitFor();
  await page.goto(await printedLink(studio.portal, email, before));
  await expect(page).toHaveURL(/\/studio$/);
}

/**
 * Mean luma of a region of the live <video id="avatar-video"> (coordinates in the 512 px frame),
 * sampled `n` times `everyMs` apart: how much the mouth moves shows in how much this varies.
 */
export async function regionLuma(
  page: Page,
  region: { x: number; y: number; width: number; height: number },
  n = 12,
  everyMs = 80,
): Promise<number[]> {
  return page.evaluate(
    async ([r, n, every]) => {
      const v = document.getElementById("avatar-video") as HTMLVideoElement;
      const c = document.createElement("canvas");
      c.width = v.videoWidth;
      c.height = v.videoHeight;
      const g = c.getContext("2d", { willReadFrequently: true })!;
      const out: number[] = [];
      for (let i = 0; i < n; i++) {
        g.drawImage(v, 0, 0);
        const d = g.getImageData(r.x, r.y, r.width, r.height).data;
        let sum = 0;
        for (let p = 0; p < d.length; p += 4) sum += 0.299 * d[p] + 0.587 * d[p + 1] + 0.114 * d[p + 2];
        out.push(sum / (d.length / 4));
        await new Promise((res) => setTimeout(res, every));
      }
      return out;
    },
    [region, n, everyMs] as const,
  );
}

/** Standard deviation. */
export function spread(xs: number[]): number {
  const m = xs.reduce((a, b) => a + b, 0) / xs.length;
  return Math.sqrt(xs.reduce((a, b) => a + (b - m) ** 2, 0) / xs.length);
}
