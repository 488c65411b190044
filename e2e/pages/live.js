// Test page script: one browser WebRTC session on the box (Box: signalling and engine), driven by
// e2e/live.spec.ts through window.live. Plain JS because the static server serves it as written.
const video = /** @type {HTMLVideoElement} */ (document.getElementById("video"));
const audio = /** @type {HTMLAudioElement} */ (document.getElementById("audio"));
const preview = /** @type {HTMLImageElement} */ (document.getElementById("preview"));
const canvas = /** @type {HTMLCanvasElement} */ (document.getElementById("canvas"));

/** @type {RTCPeerConnection | null} */
let pc = null;

/** Resolves once ICE gathering is complete (or after `ms`, with whatever was gathered). */
function gathered(peer, ms) {
  if (peer.iceGatheringState === "complete") return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    peer.addEventListener("icegatheringstatechange", () => {
      if (peer.iceGatheringState === "complete") clearTimeout(timer), resolve();
    });
  });
}

/** POST JSON to the box from this page (cross-origin: exercises the box's CORS). */
async function api(boxUrl, path, body) {
  const res = await fetch(boxUrl + path, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  let json = null;
  try {
    json = JSON.parse(text);
  } catch {
    json = { raw: text };
  }
  return { status: res.status, json };
}

/** Offers recvonly video + audio, posts the gathered offer to /connect, applies the answer. */
async function connect(boxUrl, avatar) {
  if (pc) pc.close();
  // No ICE servers: the box answers with loopback candidates only.
  pc = new RTCPeerConnection();
  pc.addTransceiver("video", { direction: "recvonly" });
  pc.addTransceiver("audio", { direction: "recvonly" });
  pc.addEventListener("track", (e) => {
    // audioLevel/totalAudioEnergy stay 0 unless the audio track plays through an element.
    const el = e.track.kind === "video" ? video : audio;
    el.srcObject = new MediaStream([e.track]);
    void el.play().catch(() => undefined);
  });
  await pc.setLocalDescription(await pc.createOffer());
  await gathered(pc, 5000);
  const offer = { sdp: pc.localDescription.sdp, type: "offer", ...(avatar ? { avatar } : {}) };
  const res = await api(boxUrl, "/connect", offer);
  if (res.status !== 200) return res;
  await pc.setRemoteDescription({ type: res.json.type, sdp: res.json.sdp });
  return res;
}

/** Inbound RTP figures from getStats, plus what the <video> element sees. */
async function stats() {
  const out = {
    connectionState: pc ? pc.connectionState : "none",
    element: { videoWidth: video.videoWidth, videoHeight: video.videoHeight, currentTime: video.currentTime, audioPaused: audio.paused },
    video: null,
    audio: null,
  };
  if (!pc) return out;
  const report = await pc.getStats();
  report.forEach((s) => {
    if (s.type !== "inbound-rtp") return;
    if (s.kind === "video") {
      out.video = {
        framesDecoded: s.framesDecoded ?? 0,
        frameWidth: s.frameWidth ?? 0,
        frameHeight: s.frameHeight ?? 0,
        packetsReceived: s.packetsReceived ?? 0,
      };
    } else if (s.kind === "audio") {
      out.audio = {
        totalAudioEnergy: s.totalAudioEnergy ?? 0,
        totalSamplesDuration: s.totalSamplesDuration ?? 0,
        audioLevel: s.audioLevel ?? 0,
        packetsReceived: s.packetsReceived ?? 0,
      };
    }
  });
  return out;
}

/** Mean luma (BT.601, 0-255) of a region of the current video frame or of the preview image. */
function luma(source, region) {
  const el = source === "video" ? video : preview;
  const w = source === "video" ? video.videoWidth : preview.naturalWidth;
  const h = source === "video" ? video.videoHeight : preview.naturalHeight;
  if (!w || !h) throw new Error(`${source} has no picture yet`);
  canvas.width = w;
  canvas.height = h;
  const ctx = canvas.getContext("2d", { willReadFrequently: true });
  ctx.drawImage(el, 0, 0, w, h);
  const r = region ?? { x: 0, y: 0, width: w, height: h };
  const d = ctx.getImageData(r.x, r.y, r.width, r.height).data;
  let sum = 0;
  for (let i = 0; i < d.length; i += 4) sum += 0.299 * d[i] + 0.587 * d[i + 1] + 0.114 * d[i + 2];
  return sum / (r.width * r.height);
}

/** Loads the avatar preview into the <img> (CORS mode, so the canvas can read it back). */
async function loadPreview(boxUrl, avatar) {
  preview.crossOrigin = "anonymous";
  preview.src = `${boxUrl}/api/avatar/preview?avatar=${encodeURIComponent(avatar)}`;
  await preview.decode();
  return { complete: preview.complete, naturalWidth: preview.naturalWidth, naturalHeight: preview.naturalHeight };
}

function close() {
  if (pc) pc.close();
  pc = null;
}

window.live = { connect, stats, luma, loadPreview, api, close };
