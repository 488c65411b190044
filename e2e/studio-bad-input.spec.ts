// The live studio under the mishaps of real use (issue 13, "Bad input"): double clicks send once,
// a second tab takes the single live session and the first says so, closing a tab mid-call
// releases the box, a microphone the browser refuses is explained, and a page left open after its
// portal session ended says to sign in again. Peer connections are counted by wrapping the page's
// RTCPeerConnection (test-side), so none is left open behind the page's back.
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { createClient } from "@libsql/client";
import type { Page, Request } from "@playwright/test";
import { expect, signIn, test } from "./studio-fixture.ts";
import { launchWith } from "./chromium.ts";

/** Counts the page's peer connections and how many are not closed (wrapped before any script runs). */
async function countPeers(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const made: RTCPeerConnection[] = [];
    const Native = window.RTCPeerConnection;
    window.RTCPeerConnection = class extends Native {
      constructor(config?: RTCConfiguration) {
        super(config);
        made.push(this);
      }
    } as typeof RTCPeerConnection;
    (window as any).peers = () => ({
      made: made.length,
      open: made.filter((p) => p.signalingState !== "closed").length,
      connected: made.filter((p) => p.connectionState === "connected").length,
    });
  });
}

// Box credentials live 30 s here, so the pages renew theirs during the tests (and the last test
// sees a renewal refused).
test.use({
  studioEnv: { PORTAL_CREDENTIAL_TTL_SECONDS: "30" },
  launchOptions: launchWith("--use-fake-device-for-media-stream"),
});

const peers = (page: Page) => page.evaluate(() => (window as any).peers() as { made: number; open: number; connected: number });

/** Requests `page` sends to `method path`, counted from now. */
function counter(page: Page, method: string, path: string): () => number {
  let n = 0;
  page.on("request", (r: Request) => {
    if (r.method() === method && new URL(r.url()).pathname === path) n++;
  });
  return () => n;
}

async function frames(page: Page): Promise<number> {
  return page.locator("#avatar-video").evaluate((v: HTMLVideoElement) => v.getVideoPlaybackQuality().totalVideoFrames);
}

/** A box credential minted with the browser context's portal session, for checks from the test. */
async function boxTalk(page: Page, url: string): Promise<number> {
  const grant = await (await page.request.post(`${url}/auth/session/credential`, { headers: { origin: url } })).json();
  const res = await page.request.post(`${url}/api/talk`, {
    headers: { authorization: `Bearer ${grant.credential.secret}` },
    data: { text: "Are you there?" },
  });
  return res.status();
}

test("double clicks send once; a second tab takes the call and the first says so; closing a tab releases the box", async ({
  page,
  context,
  studio,
}) => {
  test.setTimeout(120_000);
  const errors: string[] = [];
  page.on("pageerror", (e) => errors.push(e.message));
  await countPeers(page);
  await signIn(page, studio);
  await expect(page.locator("#readiness")).toContainText("Voice: ready");

  await test.step("double clicks", async () => {
    const connects = counter(page, "POST", "/connect");
    await page.locator("#start-call").dblclick();
    await expect(page.locator("#call-state")).toHaveAttribute("data-state", "listening");
    await expect.poll(() => frames(page)).toBeGreaterThan(5);
    expect(connects(), "one double click on Start call, one /connect").toBe(1);

    const talks = counter(page, "POST", "/api/talk");
    await page.getByText("Talk", { exact: true }).click();
    await page.getByLabel("Message").fill("Just once, please.");
    await page.getByRole("button", { name: "Send" }).dblclick();
    await expect(page.locator("#captions")).toContainText("Just once, please.");
    await page.waitForTimeout(500);
    expect(talks(), "one double click on Send, one /api/talk").toBe(1);
    await expect(page.locator("#call-state")).toHaveAttribute("data-state", "listening", { timeout: 30_000 });
  });

  await test.step("a second tab takes the single live session", async () => {
    const second = await context.newPage();
    await countPeers(second);
    second.on("pageerror", (e) => errors.push(`second tab: ${e.message}`));
    await second.goto(`${studio.url}/studio`);
    await second.getByRole("button", { name: "Start call" }).click();
    await expect(second.locator("#call-state")).toHaveAttribute("data-state", "listening");
    await expect.poll(() => frames(second)).toBeGreaterThan(5);

    await expect(page.locator('[data-notice="problem"]')).toContainText("This call moved to another tab of the studio");
    await expect(page.locator("#call-state")).toHaveAttribute("data-state", "off");
    // The first tab's peer is closed (only the next call's unused offer stays open, unconnected).
    expect(await peers(page)).toMatchObject({ connected: 0, open: 1 });

    await test.step("closing the tab mid-call releases the box", async () => {
      expect(await boxTalk(page, studio.url)).toBe(200);
      await second.close({ runBeforeUnload: true });
      // The page closes its connection as it goes (pagehide); the box ends the session on the DTLS
      // close_notify, not ~30 s later when the consent check gives up.
      await expect
        .poll(() => boxTalk(page, studio.url), { timeout: 3_000, message: "the box ends the session of a closed tab at once" })
        .toBe(409);
    });
  });

  expect(errors).toEqual([]);
});

test("a microphone the browser refuses is explained in words", async ({ page, studio }) => {
  await page.addInitScript(() => {
    navigator.mediaDevices.getUserMedia = () => Promise.reject(new DOMException("Permission denied", "NotAllowedError"));
  });
  await signIn(page, studio);
  await page.getByRole("button", { name: "Open mic" }).click();
  await expect(page.locator('[data-notice="mic"]')).toContainText("allow it in the browser's site settings");
  await expect(page.locator("#open-mic")).toHaveAttribute("aria-pressed", "false");
});

test("a page left open after its portal session ended says to sign in again", async ({ page, studio }) => {
  test.setTimeout(90_000);
  await signIn(page, studio);
  await expect(page.locator("#readiness")).toContainText("Voice: ready");
  // The portal session ends elsewhere (signed out in another window of this browser: same cookie);
  // the page finds out when it renews its box credential, ahead of the 30 s expiry.
  expect((await page.request.post(`${studio.url}/auth/logout`, { headers: { origin: studio.url } })).status()).toBeLessThan(300);
  const notice = page.locator('[data-notice="auth"]');
  await expect(notice).toContainText("signed out", { timeout: 45_000 });
  await notice.getByRole("button", { name: "Sign in again" }).click();
  await expect(page).toHaveURL(/\/studio\/sign-in\?next=%2Fstudio$/);
});

test("a box credential revoked mid-call: the page says so, gets a new one and starts again", async ({ page, studio }) => {
  test.setTimeout(90_000);
  await signIn(page, studio);
  await page.getByRole("button", { name: "Start call" }).click();
  await expect(page.locator("#call-state")).toHaveAttribute("data-state", "listening");
  await page.getByRole("button", { name: "Open mic" }).click();
  await expect(page.locator("#event-log")).toContainText("Microphone socket ready");

  // Revoked in the shared key table, as the portal or an administrator would.
  const db = createClient({ url: pathToFileURL(join(studio.dir, "portal.db")).href });
  await db.execute({
    sql: "UPDATE credentials SET revoked_at = ? WHERE kind = 'session_credential' AND revoked_at IS NULL",
    args: [Math.floor(Date.now() / 1000)],
  });
  db.close();

  const notice = page.locator('[data-notice="revoked"]');
  await expect(notice).toContainText("the page's credential was revoked", { timeout: 20_000 });
  await expect(page.locator("#call-state")).toHaveAttribute("data-state", "off");
  await expect(page.locator("#open-mic")).toHaveAttribute("aria-pressed", "false");
  await notice.getByRole("button", { name: "Start again" }).click();
  await expect(page.locator("#call-state")).toHaveAttribute("data-state", "listening");
  await expect(notice).toHaveCount(0);
});
