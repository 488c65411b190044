// The fixture of the web-call example's end to end specs: the studio fixture's portal and local box
// (as `npm start` runs them) with the example's origin in BOX_ALLOWED_ORIGINS, a key made in the
// studio, the example started by its package script (`npm run example`), and its page read as a
// user meets it: frames shown, audio received, the page's own words.
import { spawn } from "node:child_process";
import { mkdirSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";
import { createInterface } from "node:readline";
import type { Page } from "@playwright/test";
import { test as studioTest, expect, ROOT, SHOTS, signIn, type Studio } from "./studio-fixture.ts";

export { expect };

const EMAIL = "integrator@example.com";
const SHOT_SIZES = { desktop: { width: 1366, height: 768 }, phone: { width: 390, height: 844 } } as const;

/** A port free right now, for the example's origin (the box must know it before it starts). */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });
}

// `exampleEnv` (a worker option) adds to the portal's environment; the box always allows the example's origin.
export const test = studioTest.extend<{}, { examplePort: number; exampleEnv: Record<string, string> }>({
  examplePort: [async ({}, use) => use(await freePort()), { scope: "worker" }],
  exampleEnv: [{}, { scope: "worker", option: true }],
  studioEnv: [
    async ({ examplePort, exampleEnv }, use) => use({ BOX_ALLOWED_ORIGINS: `http://127.0.0.1:${examplePort}`, ...exampleEnv }),
    { scope: "worker" },
  ],
});

export interface RunningExample {
  url: string;
  output: string[];
  stop(): void;
}

/** Signs in on the studio, makes an API key, and starts `npm run example`'s command with it. */
export async function startExample(page: Page, studio: Studio, port: number): Promise<RunningExample> {
  await signIn(page, studio, EMAIL);
  const secret = await page.evaluate(async () => {
    const res = await fetch("/auth/keys", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ name: "web-call example" }),
    });
    return (await res.json()).key.secret as string;
  });
  const script = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).scripts.example as string;
  const child = spawn("sh", ["-c", `exec ${script}`], {
    cwd: ROOT,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      AVATAR_API_KEY: secret,
      AVATAR_BASE_URL: studio.url,
      EXAMPLE_PORT: String(port),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output: string[] = [];
  createInterface({ input: child.stderr! }).on("line", (l) => output.push(l));
  const lines = createInterface({ input: child.stdout! });
  lines.on("line", (l) => output.push(l));
  const stop = () => void (child.exitCode === null && child.kill("SIGTERM"));
  const url = await new Promise<string>((resolve, reject) => {
    lines.on("line", (l) => {
      const m = /^web-call example: open (\S+)/.exec(l);
      if (m) resolve(m[1]);
    });
    child.once("exit", (code) => reject(new Error(`the example exited ${code}: ${output.join("\n")}`)));
  });
  return { url, output, stop };
}

/** The page's live connection, read through window.example (frames shown, audio received). */
export function mediaStats(page: Page): Promise<{ frames: number; width: number; samplesSeconds: number; audioLevel: number }> {
  return page.evaluate(async () => {
    const v = document.getElementById("avatar") as HTMLVideoElement;
    const media = (window as unknown as { example: { media: { pc: RTCPeerConnection } | null } }).example.media;
    let samplesSeconds = 0;
    let audioLevel = 0;
    (await media?.pc.getStats())?.forEach((s: { type?: string; kind?: string; totalSamplesDuration?: number; audioLevel?: number }) => {
      if (s.type === "inbound-rtp" && s.kind === "audio") (samplesSeconds = s.totalSamplesDuration ?? 0), (audioLevel = s.audioLevel ?? 0);
    });
    return { frames: v.getVideoPlaybackQuality().totalVideoFrames, width: v.videoWidth, samplesSeconds, audioLevel };
  });
}

export async function startCall(page: Page): Promise<void> {
  await page.getByRole("button", { name: "Start call" }).click();
  await expect(page.locator("#call-state")).toHaveText("In a call.");
  await expect.poll(async () => (await mediaStats(page)).frames, { message: "video frames shown on the page" }).toBeGreaterThan(25);
  expect((await mediaStats(page)).width).toBe(512);
  await expect.poll(async () => (await mediaStats(page)).samplesSeconds, { message: "audio samples received" }).toBeGreaterThan(1);
}

export async function talk(page: Page, text: string): Promise<void> {
  await page.getByLabel(/^Talk:/).fill(text);
  await page.getByRole("button", { name: "Say it" }).click();
  await expect(page.locator("#events")).toContainText(`Said: ${text}`);
  await expect
    .poll(async () => (await mediaStats(page)).audioLevel, { message: "audio level while the avatar speaks" })
    .toBeGreaterThan(0.02);
}

export async function shootExample(page: Page, name: string): Promise<void> {
  mkdirSync(SHOTS, { recursive: true });
  for (const [size, viewport] of Object.entries(SHOT_SIZES)) {
    await page.setViewportSize(viewport);
    await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
    expect(
      await page.evaluate(() => document.documentElement.scrollWidth),
      `${name} at ${size}: no sideways scrolling`,
    ).toBeLessThanOrEqual(viewport.width);
    await page.screenshot({ path: join(SHOTS, `example-${name}-${size}.png`), fullPage: true });
  }
  await page.setViewportSize(SHOT_SIZES.desktop);
}
