import wrtc from "@roamhq/wrtc";
import sharp from "sharp";
import { describe, expect, test } from "vitest";
import { singlePhoto } from "../faces/testing/photos.ts";
import { createAnswerPeer } from "../media/peer.ts";
import { waitFor } from "../media/testing/processes.ts";
import { Perception } from "./perception.ts";

type VideoSource = { createTrack(): MediaStreamTrack; onFrame(f: { width: number; height: number; data: Uint8Array }): void };
const w = wrtc as unknown as {
  RTCPeerConnection: new (c?: RTCConfiguration) => RTCPeerConnection;
  nonstandard: { RTCVideoSource: new () => VideoSource };
};

/** I420 of an RGB image (BT.601), what libwebrtc's video source takes. */
function i420Of(rgb: Buffer, width: number, height: number): Uint8Array {
  const out = new Uint8Array((width * height * 3) / 2);
  const u0 = width * height,
    v0 = u0 + u0 / 4;
  for (let y = 0; y < height; y++)
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3,
        r = rgb[i]!,
        g = rgb[i + 1]!,
        b = rgb[i + 2]!;
      out[y * width + x] = Math.max(0, Math.min(255, 0.257 * r + 0.504 * g + 0.098 * b + 16));
      if (y % 2 === 0 && x % 2 === 0) {
        const c = (y / 2) * (width / 2) + x / 2;
        out[u0 + c] = Math.max(0, Math.min(255, -0.148 * r - 0.291 * g + 0.439 * b + 128));
        out[v0 + c] = Math.max(0, Math.min(255, 0.439 * r - 0.368 * g - 0.071 * b + 128));
      }
    }
  return out;
}

describe("a libwebrtc client sending its camera to /connect's peer", () => {
  test("the box receives the VP8 track, decodes a picture of the face, and its decoder ends with the peer", async () => {
    const width = 480,
      height = 640;
    const { data } = await sharp(await singlePhoto())
      .resize(width, height, { fit: "cover" })
      .removeAlpha()
      .raw()
      .toBuffer({ resolveWithObject: true });
    const frame = { width, height, data: i420Of(data, width, height) };
    const client = new w.RTCPeerConnection({ iceServers: [] });
    const source = new w.nonstandard.RTCVideoSource();
    const camera = source.createTrack();
    client.addTransceiver("video", { direction: "recvonly" });
    client.addTransceiver("audio", { direction: "recvonly" });
    client.addTransceiver(camera, { direction: "sendonly" });
    await client.setLocalDescription(await client.createOffer());
    await waitFor(() => client.iceGatheringState === "complete", 5_000, "the client gathered");
    const peer = await createAnswerPeer(
      { sdp: client.localDescription!.sdp, type: "offer" },
      { loopbackOnly: true, receiveClientVideo: true },
    );
    const perception = new Perception({ log: () => {} });
    const feeding = setInterval(() => source.onFrame(frame), 66);
    try {
      perception.attach(peer.clientVideo!);
      await client.setRemoteDescription(peer.answer as RTCSessionDescriptionInit);
      await peer.connected;
      await waitFor(() => perception.picture() !== null, 20_000, "a picture of the camera was decoded");
      const meta = await sharp(perception.picture()!.jpeg).metadata();
      expect(meta.format).toBe("jpeg");
      expect([meta.width, meta.height]).toEqual([width, height]); // under 768 px: kept at its size
      const pid = perception.decoderPid!;
      perception.close();
      await waitFor(
        () => {
          try {
            process.kill(pid, 0);
            return false;
          } catch {
            return true;
          }
        },
        5_000,
        "the decoder ended",
      );
    } finally {
      clearInterval(feeding);
      perception.close();
      camera.stop();
      client.close();
      peer.close();
    }
  });
});
