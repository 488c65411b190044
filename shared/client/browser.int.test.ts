// Integration in a real browser (Debian's Chromium through playwright-core): the client library
// bundled for the browser (Bun, --target=browser) and loaded by a page on another origin, as an
// integrator would: a session token from the page's own backend, connect() with the browser's
// RTCPeerConnection and a refused autoplay resumed from a real click, the microphone captured
// (fake device) and streamed on the voice socket, a spoken turn on the control socket.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BUN, spawnBox, type RunningBox } from "../../box/testing/spawn-box.ts";
import { BoxClient } from "./box-client.ts";

const KEY = "client_browser_key";
let box: RunningBox;
let site: Server;
let origin: string;
let browser: Browser;
let page: Page;

// The integrator's page. It connects at load, with no user gesture (evaluate() would lend one), so
// the browser refuses sound; results come back as console lines. Later tests drive window.client.
const PAGE = `<!doctype html><meta charset="utf-8"><video id="v"></video><button id="resume">Start sound</button>
<script type="module">
  import { AvatarClient } from "/client.js";
  const log = (o) => console.log("avatar-test " + JSON.stringify(o));
  const video = document.getElementById("v");
  const client = new AvatarClient({ baseUrl: new URLSearchParams(location.search).get("box"), token: () => fetch("/avatar-token", { method: "POST" }).then((r) => r.json()) });
  const media = await client.connect({
    video,
    on: {
      autoplay_blocked: (b) => log({ event: "blocked", videoPlaying: b.videoPlaying, muted: video.muted }),
      timing: (t) => log({ event: t.mark, ms: t.ms }),
    },
  });
  Object.assign(window, { client, media });
  document.getElementById("resume").onclick = () => media.resumeMedia().then(() => log({ event: "resumed", muted: video.muted, paused: video.paused, width: video.videoWidth }));
  log({ event: "connected", same: video.srcObject === media.stream, tracks: media.stream.getTracks().map((t) => t.kind).sort(), answer: media.answer.type });
</script>`;

async function startSite(bundle: string, mint: () => Promise<unknown>): Promise<void> {
  site = createServer(async (req, res) => {
    if (req.url?.startsWith("/?box=")) return void res.writeHead(200, { "content-type": "text/html" }).end(PAGE);
    if (req.url === "/client.js") return void res.writeHead(200, { "content-type": "text/javascript" }).end(bundle);
    // The integrator's backend: mints a stream-only token with the full key the browser never sees.
    if (req.url === "/avatar-token" && req.method === "POST")
      return void res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(await mint()));
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => site.listen(0, "127.0.0.1", r));
  origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
}

beforeAll(async () => {
  const out = join(mkdtempSync(join(tmpdir(), "client-bundle-")), "client.js");
  const built = spawnSync(BUN, ["build", join(import.meta.dirname, "index.ts"), "--target=browser", "--format=esm", `--outfile=${out}`], {
    encoding: "utf8",
  });
  if (built.status !== 0) throw new Error(`bundle failed: ${built.stderr}`);
  let boxUrl = "";
  await startSite(readFileSync(out, "utf8"), () => new BoxClient({ baseUrl: boxUrl, token: KEY }).createToken({ ttl_seconds: 300 }));
  const keyTable = `file:${join(mkdtempSync(join(tmpdir(), "client-kt-")), "keys.db")}`;
  [box, browser] = await Promise.all([
    spawnBox({ BOX_API_KEYS: KEY, BOX_KEY_TABLE_URL: keyTable, BOX_ALLOWED_ORIGINS: origin, BOX_ASR: "pocketsphinx" }),
    chromium.launch({
      executablePath: "/usr/bin/chromium",
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--autoplay-policy=user-gesture-required",
        "--use-fake-ui-for-media-stream",
        "--use-fake-device-for-media-stream",
      ],
    }),
  ]);
  boxUrl = box.url;
});
afterAll(async () => {
  await browser?.close();
  await box?.stop();
  await new Promise((r) => site?.close(r));
});

describe("the client library in Chromium", () => {
  it("connect() plays the avatar on one element; a refused autoplay resumes from a real click", async () => {
    const tab = (page = await browser.newPage());
    const lines: Record<string, any>[] = [];
    tab.on("console", (m) => m.text().startsWith("avatar-test ") && lines.push(JSON.parse(m.text().slice("avatar-test ".length))));
    const seen = async (event: string) => {
      for (let i = 0; i < 300 && !lines.some((l) => l.event === event); i++) await new Promise((r) => setTimeout(r, 50));
      return lines.find((l) => l.event === event);
    };
    await tab.goto(`${origin}/?box=${encodeURIComponent(box.url)}`);
    expect(await seen("connected")).toEqual({ event: "connected", same: true, tracks: ["audio", "video"], answer: "answer" });
    expect(await seen("blocked")).toEqual({ event: "blocked", videoPlaying: true, muted: true });
    expect(await seen("first_frame")).toEqual({ event: "first_frame", ms: expect.any(Number) });
    // Where the start-up time went, in order: offer gathered, box answered, media up, first picture.
    const at = (e: string) => lines.find((l) => l.event === e)!.ms as number;
    expect(at("offer_ready")).toBeLessThanOrEqual(at("answer"));
    expect(at("answer")).toBeLessThanOrEqual(at("media_connected"));
    expect(at("media_connected")).toBeLessThanOrEqual(at("first_frame"));
    await tab.click("#resume");
    expect(await seen("resumed")).toEqual({ event: "resumed", muted: false, paused: false, width: expect.any(Number) });
  });

  it("the microphone: echo cancellation, noise suppression and automatic gain asked; 16 kHz PCM streamed after ready", async () => {
    const mic = await page.evaluate(async () => {
      const { client } = window as any;
      const voice = client.voice();
      const states: string[] = [];
      voice.on({ mic_state: (s: any) => states.push(s.state) });
      let frames = 0;
      let samples = 0;
      const send = voice.sendPcm.bind(voice);
      voice.sendPcm = (pcm: Int16Array) => ((frames += 1), (samples = pcm.length), send(pcm));
      await voice.open();
      const m = await voice.startMicrophone();
      await new Promise((r) => setTimeout(r, 600));
      const settings = m.stream.getAudioTracks()[0].getSettings();
      const out = {
        states,
        frames,
        samples,
        ready: voice.ready,
        inputRate: m.inputRate,
        settings: {
          echoCancellation: settings.echoCancellation,
          noiseSuppression: settings.noiseSuppression,
          autoGainControl: settings.autoGainControl,
        },
      };
      voice.end();
      return out;
    });
    expect(mic.ready).toMatchObject({ type: "ready", sample_rate: 16000 });
    expect(mic.states).toEqual(["pending", "granted", "stopped"]);
    expect(mic.settings).toEqual({ echoCancellation: true, noiseSuppression: true, autoGainControl: true });
    expect(mic.samples).toBe(320);
    expect(mic.frames).toBeGreaterThan(10); // 20 ms frames for most of 0.6 s
  });

  it("the control socket from the page: a spoken turn and its first audio", async () => {
    const r = await page.evaluate(async () => {
      const s = (window as any).client.session();
      await s.open();
      const firstAudio = new Promise<any>((res) => s.on({ timing: (t: any) => t.mark === "first_audio" && res(t) }));
      const turn = await s.talk("Hello from a browser.");
      const t = await firstAudio;
      s.close();
      await (window as any).media.disconnect();
      return { content: turn.message.content, firstAudio: t.ms, same: t.correlationId === turn.correlationId };
    });
    expect(r).toEqual({ content: "Hello from a browser.", firstAudio: expect.any(Number), same: true });
  });

  it("a prepared offer is used by connect() (same peer, frames decoded); a closed one is replaced by a fresh offer", async () => {
    const r = await page.evaluate(async () => {
      const client = (window as any).client;
      const video = document.getElementById("v") as HTMLVideoElement;
      const prepared = client.prepareConnect();
      await prepared.ready;
      const gathered = prepared.pc.iceGatheringState;
      const media = await client.connect({ video, prepared });
      const frame = await new Promise<boolean>((res) => {
        video.requestVideoFrameCallback(() => res(true));
        setTimeout(() => res(false), 10_000);
      });
      const same = media.pc === prepared.pc;
      await media.disconnect();
      const stale = client.prepareConnect();
      stale.close();
      const again = await client.connect({ video, prepared: stale });
      const replaced = again.pc !== stale.pc && again.pc.signalingState === "stable";
      await again.disconnect();
      return { gathered, same, frame, replaced, staleState: stale.pc.signalingState };
    });
    expect(r).toEqual({ gathered: "complete", same: true, frame: true, replaced: true, staleState: "closed" });
  });
});
