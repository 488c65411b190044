// The live side of the realistic-turn benchmark (scripts/bench/real-turn.ts): the real box on the
// fakes, a WebRTC client on its live session, the voice socket with a real-time microphone whose
// every frame is stamped on arrival (as scripts/bench/voice-bench-kit.ts does for a 0 ms model).
import { WrtcClient } from "../../box/media/testing/wrtc-client.ts";
import { Mic } from "../../box/sockets/testing/mic.ts";
import { WsClient } from "../../box/sockets/testing/ws-client.ts";
import { spawnBox, type RunningBox } from "../../box/testing/spawn-box.ts";

export const BENCH_KEY = "bench_key";

export type Frame = Record<string, any>;

/** The real box on the two fakes, a WebRTC client on its live session, the voice socket with a real-time mic. */
export async function openLive(env: Record<string, string>, grammar: string[]) {
  const box: RunningBox = await spawnBox({
    BOX_API_KEYS: BENCH_KEY,
    BOX_ASR: "pocketsphinx",
    BOX_ASR_GRAMMAR: JSON.stringify(grammar),
    BOX_IDLE_SECONDS: "600",
    ...env,
  });
  const media = new WrtcClient(4);
  const headers = { "x-api-key": BENCH_KEY, "content-type": "application/json" };
  const post = (path: string, body?: unknown) =>
    fetch(box.url + path, { method: "POST", headers, body: body === undefined ? undefined : JSON.stringify(body) });
  let ws: WsClient | undefined;
  let mic: Mic | undefined;
  const close = async () => {
    mic?.stop();
    ws?.close();
    await post("/disconnect").catch(() => null);
    media.close();
    await box.stop();
  };
  try {
    await media.connect(async (offer) => {
      const res = await post("/connect", offer);
      if (res.status !== 200) throw new Error(`/connect ${res.status} ${await res.text()}`);
      return (await res.json()) as { sdp: string; type: string };
    });
    await media.waitForFirstFrame(20_000);
    ws = new WsClient(box.url.replace("http", "ws") + "/api/voice/ws", { "x-api-key": BENCH_KEY });
    await ws.waitType("ready", 15_000);
    mic = new Mic(ws);
    mic.start();
    const at = new Map<object, number>();
    const push = ws.frames.push.bind(ws.frames);
    ws.frames.push = (...fs) => (fs.forEach((f) => at.set(f, performance.now())), push(...fs));
    /** performance.now() when voice-socket frame `f` arrived. */
    const when = (f: Frame) => at.get(f) ?? -Infinity;
    return { box, media, ws, mic, when, post, close };
  } catch (err) {
    await close();
    throw err;
  }
}
