// Shared set-up of the voice benchmarks (scripts, not tests): a 0 ms protocol-fake model, a box
// with pocketsphinx and a grammar, a WebRTC client receiving the live session, and the voice
// socket with a real-time microphone whose every frame is stamped on arrival.
import { FakeOpenAi } from "../../box/llm/testing/fake-openai.ts";
import { spawnBox } from "../../box/testing/spawn-box.ts";
import { WrtcClient } from "../../box/media/testing/wrtc-client.ts";
import { WsClient } from "../../box/sockets/testing/ws-client.ts";
import { Mic } from "../../box/sockets/testing/mic.ts";

export type Frame = Record<string, any>;

export const BENCH_KEY = "bench_key";

/** `modelMs`: the fake model's time to its first token (0 by default). */
export async function openVoiceBench(o: {
  reply: string;
  grammar: string[];
  env?: Record<string, string>;
  keepRecent?: number;
  modelMs?: number;
}) {
  const fake = await FakeOpenAi.start({
    models: [{ id: "fake-chat" }],
    latencyMs: 0,
    defaultScript: [...(o.modelMs ? [{ delayMs: o.modelMs }] : []), { text: o.reply }],
  });
  const box = await spawnBox({
    BOX_API_KEYS: BENCH_KEY,
    BOX_OPENAI_BASE_URL: fake.url,
    BOX_ASR: "pocketsphinx",
    BOX_ASR_GRAMMAR: JSON.stringify(o.grammar),
    BOX_IDLE_SECONDS: "600",
    ...o.env,
  });
  const media = new WrtcClient(o.keepRecent ?? 4);
  const close = async () => {
    media.close();
    await box.stop();
    await fake.close();
  };
  try {
    await media.connect(
      async (offer) =>
        (await (
          await fetch(box.url + "/connect", {
            method: "POST",
            headers: { "x-api-key": BENCH_KEY, "content-type": "application/json" },
            body: JSON.stringify(offer),
          })
        ).json()) as { sdp: string; type: string },
    );
    await media.waitForFirstFrame(20_000);
    const ws = new WsClient(box.url.replace("http", "ws") + "/api/voice/ws", { "x-api-key": BENCH_KEY });
    await ws.waitType("ready", 15_000);
    const mic = new Mic(ws);
    mic.start();
    const at = new Map<object, number>();
    const origPush = ws.frames.push.bind(ws.frames);
    ws.frames.push = (...fs) => (fs.forEach((f) => at.set(f, performance.now())), origPush(...fs));
    /** performance.now() when frame `f` arrived. */
    const when = (f: Frame) => at.get(f) ?? -Infinity;
    const interrupt = () => fetch(box.url + "/api/interrupt", { method: "POST", headers: { "x-api-key": BENCH_KEY } });
    return {
      box,
      media,
      ws,
      mic,
      when,
      interrupt,
      close: async () => {
        mic.stop();
        ws.close();
        await close();
      },
    };
  } catch (err) {
    await close();
    throw err;
  }
}
