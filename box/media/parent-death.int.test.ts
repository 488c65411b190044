// Integration: a live session's ffmpeg encoder and the warm spare die with the box even when it is SIGKILLed (no
// handler runs): the kernel kills them at once, whether or not they are reading their input.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { spawnBox, type RunningBox } from "../testing/spawn-box.ts";
import { WrtcClient } from "./testing/wrtc-client.ts";
import { childPids, isAlive, waitFor } from "./testing/processes.ts";

let box: RunningBox;

beforeAll(async () => {
  box = await spawnBox();
}, 60_000);
afterAll(() => box.stop());

describe("encoder children and a SIGKILLed box", () => {
  it("every ffmpeg child is gone within 1.5 s of kill -9, a stalled one included", async () => {
    const client = new WrtcClient(2);
    let encoders: number[] = [];
    try {
      await client.connect(async (offer) => {
        const res = await fetch(box.url + "/connect", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(offer),
        });
        const body = (await res.json()) as { sdp: string; type: string };
        if (res.status !== 200) throw new Error(`connect ${res.status} ${JSON.stringify(body)}`);
        return body;
      });
      await client.waitForFirstFrame(20_000);
      // The session's encoder, and the warm spare started for the next /connect.
      await waitFor(() => childPids(box.child.pid!, "ffmpeg").length === 2, 10_000, "the session's encoder and the next spare run");
      encoders = childPids(box.child.pid!, "ffmpeg");
      expect(encoders).toHaveLength(2);
      // A stopped encoder stands for one too busy to notice its input ending (a loaded machine).
      process.kill(encoders[0], "SIGSTOP");

      const exited = new Promise((r) => box.child.once("exit", r));
      box.child.kill("SIGKILL");
      await exited;
      // Generous for a loaded machine, but well under the seconds an encoder used to linger.
      await waitFor(() => encoders.every((pid) => !isAlive(pid)), 1_500, `ffmpeg ${encoders.join(", ")} exited`);
    } finally {
      client.close();
      for (const pid of encoders.filter(isAlive)) process.kill(pid, "SIGKILL");
    }
  }, 90_000);
});
