// Fixtures for the browser end to end tests: a static server for the test pages (its origin is the
// box's only allowed origin, so every page call is a real cross-origin request), the real box, and
// a handle on pages/live.html.
import { createServer, type Server } from "node:http";
import { readFile } from "node:fs/promises";
import { extname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import { test as base, expect, type Page } from "@playwright/test";
import { spawnBox, type RunningBox } from "../box/testing/spawn-box.ts";

const PAGES = fileURLToPath(new URL("./pages/", import.meta.url));
const TYPES: Record<string, string> = { ".html": "text/html; charset=utf-8", ".js": "text/javascript; charset=utf-8" };

export interface Site {
  origin: string;
}

/** Serves e2e/pages on 127.0.0.1, port 0. */
async function serveStatic(): Promise<{ origin: string; server: Server }> {
  const server = createServer(async (req, res) => {
    const path = normalize(decodeURIComponent(new URL(req.url ?? "/", "http://x").pathname)).replace(/^(\.\.[/\\])+/, "");
    const type = TYPES[extname(path)];
    if (req.method !== "GET" || !type) return void res.writeHead(404).end();
    try {
      const body = await readFile(join(PAGES, path));
      res.writeHead(200, { "content-type": type, "cache-control": "no-store" }).end(body);
    } catch {
      res.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const addr = server.address();
  if (!addr || typeof addr === "string") throw new Error("static server has no port");
  return { origin: `http://127.0.0.1:${addr.port}`, server };
}

export interface Region {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface LiveStats {
  connectionState: string;
  element: { videoWidth: number; videoHeight: number; currentTime: number; audioPaused: boolean };
  video: { framesDecoded: number; frameWidth: number; frameHeight: number; packetsReceived: number } | null;
  audio: { totalAudioEnergy: number; totalSamplesDuration: number; audioLevel: number; packetsReceived: number } | null;
}

export interface ApiReply {
  status: number;
  json: any;
}

/** Drives window.live (pages/live.js) in one page. */
export class LivePage {
  constructor(
    readonly page: Page,
    readonly boxUrl: string,
  ) {}

  static async open(page: Page, site: Site, box: RunningBox): Promise<LivePage> {
    await page.goto(`${site.origin}/live.html`);
    await page.waitForFunction(() => "live" in window);
    return new LivePage(page, box.url);
  }

  connect(avatar?: string): Promise<ApiReply> {
    return this.page.evaluate(([url, a]) => (window as any).live.connect(url, a), [this.boxUrl, avatar] as const);
  }

  api(path: string, body?: unknown): Promise<ApiReply> {
    return this.page.evaluate(([url, p, b]) => (window as any).live.api(url, p, b), [this.boxUrl, path, body] as const);
  }

  stats(): Promise<LiveStats> {
    return this.page.evaluate(() => (window as any).live.stats());
  }

  async framesDecoded(): Promise<number> {
    return (await this.stats()).video?.framesDecoded ?? 0;
  }

  luma(source: "video" | "preview", region?: Region): Promise<number> {
    return this.page.evaluate(([s, r]) => (window as any).live.luma(s, r), [source, region] as const);
  }

  loadPreview(avatar: string): Promise<{ complete: boolean; naturalWidth: number; naturalHeight: number }> {
    return this.page.evaluate(([url, a]) => (window as any).live.loadPreview(url, a), [this.boxUrl, avatar] as const);
  }

  /** Waits until at least `atLeast` frames have been decoded in this page. */
  async waitForFrames(atLeast: number, timeout = 30_000): Promise<void> {
    await expect.poll(() => this.framesDecoded(), { timeout, message: `frames decoded (want ${atLeast})` }).toBeGreaterThanOrEqual(atLeast);
  }

  /** Mean audio energy per second of samples over a window (totalAudioEnergy is cumulative). */
  async audioEnergyOver(ms: number): Promise<number> {
    const a = (await this.stats()).audio;
    await this.page.waitForTimeout(ms);
    const b = (await this.stats()).audio;
    if (!a || !b) return 0;
    const seconds = b.totalSamplesDuration - a.totalSamplesDuration;
    return seconds > 0 ? (b.totalAudioEnergy - a.totalAudioEnergy) / seconds : 0;
  }

  close(): Promise<void> {
    return this.page.evaluate(() => (window as any).live.close());
  }
}

export const test = base.extend<{ live: LivePage; openLive: (page: Page) => Promise<LivePage> }, { site: Site; box: RunningBox }>({
  site: [
    async ({}, use) => {
      const { origin, server } = await serveStatic();
      await use({ origin });
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    },
    { scope: "worker" },
  ],
  box: [
    async ({ site }, use) => {
      const box = await spawnBox({ BOX_ALLOWED_ORIGINS: site.origin });
      await use(box);
      await box.stop();
    },
    { scope: "worker", timeout: 60_000 },
  ],
  openLive: async ({ site, box }, use) => {
    const opened: LivePage[] = [];
    await use(async (page) => {
      const live = await LivePage.open(page, site, box);
      opened.push(live);
      return live;
    });
    for (const l of opened) await l.close().catch(() => undefined);
  },
  live: async ({ page, openLive, box }, use, testInfo) => {
    const logs: string[] = [];
    page.on("console", (m) => logs.push(`${m.type()}: ${m.text()}`));
    page.on("pageerror", (e) => logs.push(`pageerror: ${e.message}`));
    await use(await openLive(page));
    // Leave the box with no live session for the next test.
    await fetch(`${box.url}/disconnect`, { method: "POST" }).catch(() => undefined);
    if (testInfo.status !== testInfo.expectedStatus) {
      await testInfo.attach("browser-console.txt", { body: logs.join("\n"), contentType: "text/plain" });
      await testInfo.attach("box-stderr.txt", { body: box.stderr().slice(-8000), contentType: "text/plain" });
    }
  },
});

export { expect };
