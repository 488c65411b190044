// Browser end to end (Box: signalling and engine; Box: conversation and session; Box: avatars and
// clips): Debian's Chromium receives the live avatar over WebRTC from a page on another origin.
import { test, expect, type LivePage } from "./fixtures.ts";

const AVATAR = "stock-ava";
const SIZE = 512;
const FACE = { x: 128, y: 128, width: 256, height: 256 };

/** Frames decoded in `page` over a window that starts after `settleMs` (lets in-flight frames land). */
async function framesAfter(live: LivePage, settleMs: number, windowMs: number): Promise<number> {
  await live.page.waitForTimeout(settleMs);
  const before = await live.framesDecoded();
  await live.page.waitForTimeout(windowMs);
  return (await live.framesDecoded()) - before;
}

test("Chromium connects cross-origin and decodes 512x512 video with an audio track", async ({ live }) => {
  const answer = await live.connect(AVATAR);
  expect(answer).toEqual({
    status: 200,
    json: { sdp: expect.stringMatching(/^v=0/), type: "answer", avatar: AVATAR, silence: expect.any(String), idle_stand_in: false },
  });

  await live.waitForFrames(50);
  const s = await live.stats();
  expect(s.video).toMatchObject({ frameWidth: SIZE, frameHeight: SIZE });
  await expect.poll(async () => (await live.stats()).element.videoWidth).toBe(SIZE);
  expect(s.element.videoHeight).toBe(SIZE);
  expect(s.connectionState).toBe("connected");
  // Audio arrives and plays through the <audio> element.
  expect(s.audio?.packetsReceived).toBeGreaterThan(0);
  await expect.poll(async () => (await live.stats()).audio?.totalSamplesDuration ?? 0).toBeGreaterThan(1);
  expect(s.element.audioPaused).toBe(false);
  // Frames keep coming.
  expect(await framesAfter(live, 0, 1000)).toBeGreaterThan(5);
});

test("/api/talk raises the received audio energy and /api/interrupt brings it back down", async ({ live }) => {
  expect((await live.connect(AVATAR)).status).toBe(200);
  await live.waitForFrames(25);
  await expect.poll(async () => (await live.stats()).audio?.totalSamplesDuration ?? 0).toBeGreaterThan(1);
  const idle = await live.audioEnergyOver(1500);

  const talk = await live.api("/api/talk", {
    text: "Hello there! I am a talking avatar in a real browser, and you can hear every word I say. Isn't that lovely?",
  });
  expect(talk).toEqual({ status: 200, json: { ok: true, spoken: expect.stringContaining("Hello there") } });
  await expect.poll(async () => (await live.stats()).audio?.audioLevel ?? 0, { message: "audioLevel during speech" }).toBeGreaterThan(0.02);
  const speaking = await live.audioEnergyOver(1500);
  test.info().annotations.push({
    type: "audio energy per second",
    description: `idle ${idle.toExponential(2)}, speaking ${speaking.toExponential(2)}`,
  });
  expect(speaking).toBeGreaterThan(Math.max(1e-4, idle * 10));

  expect(await live.api("/api/interrupt")).toEqual({ status: 200, json: { ok: true } });
  await live.page.waitForTimeout(1000);
  const after = await live.audioEnergyOver(1000);
  test.info().annotations.push({ type: "audio energy after interrupt", description: after.toExponential(2) });
  expect(after).toBeLessThan(speaking / 10);
  // The video kept streaming through all of it.
  expect(await framesAfter(live, 0, 1000)).toBeGreaterThan(5);
});

test("/disconnect stops the frames in the browser", async ({ live }) => {
  expect((await live.connect(AVATAR)).status).toBe(200);
  await live.waitForFrames(25);
  expect(await live.api("/disconnect")).toEqual({ status: 200, json: { ok: true } });
  expect(await framesAfter(live, 1000, 2000)).toBeLessThanOrEqual(2);
  // Nothing left to speak into.
  expect((await live.api("/api/talk", { text: "anyone there?" })).status).toBe(409);
});

test("a page closing its connection ends the box's live session at once (DTLS close_notify, no /disconnect)", async ({ live }) => {
  expect((await live.connect(AVATAR)).status).toBe(200);
  await live.waitForFrames(25);
  expect((await live.api("/api/talk", { text: "Still here." })).status).toBe(200);
  await live.close();
  // Without it the box would wait for the ~30 s consent check.
  await expect
    .poll(async () => (await live.api("/api/talk", { text: "anyone there?" })).status, { timeout: 1_500, intervals: [50] })
    .toBe(409);
});

test("the avatar preview loads in an <img> and matches the live picture", async ({ live }) => {
  const listed = await live.page.evaluate(async (url) => (await fetch(`${url}/api/avatars`)).json(), live.boxUrl);
  expect(listed.avatars).toContain(AVATAR);

  const img = await live.loadPreview(AVATAR);
  expect(img).toEqual({ complete: true, naturalWidth: SIZE, naturalHeight: SIZE });
  const stillFace = await live.luma("preview", FACE);
  const stillAll = await live.luma("preview");

  expect((await live.connect(AVATAR)).status).toBe(200);
  await live.waitForFrames(25);
  const liveFace = await live.luma("video", FACE);
  const liveAll = await live.luma("video");
  test.info().annotations.push({
    type: "mean luma (preview / live)",
    description: `face ${stillFace.toFixed(1)} / ${liveFace.toFixed(1)}, frame ${stillAll.toFixed(1)} / ${liveAll.toFixed(1)}`,
  });
  // A decoded picture, not black: the same face as the still, up to codec and idle motion.
  expect(liveFace).toBeGreaterThan(20);
  expect(Math.abs(liveFace - stillFace)).toBeLessThan(20);
  expect(Math.abs(liveAll - stillAll)).toBeLessThan(20);
});

test("a second page connecting ends the first page's stream", async ({ live, context, openLive }) => {
  expect((await live.connect(AVATAR)).status).toBe(200);
  await live.waitForFrames(25);

  const second = await openLive(await context.newPage());
  expect((await second.connect(AVATAR)).status).toBe(200);
  await second.waitForFrames(25);

  expect(await framesAfter(live, 1000, 2000)).toBeLessThanOrEqual(2);
  expect(await framesAfter(second, 0, 1000)).toBeGreaterThan(5);
});
