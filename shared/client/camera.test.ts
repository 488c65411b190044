import wrtc from "@roamhq/wrtc";
import { describe, expect, test } from "vitest";
import { CAMERA_MAX_FPS, prepareOffer } from "./connect.ts";

const Peer = (wrtc as unknown as { RTCPeerConnection: new (c?: RTCConfiguration) => RTCPeerConnection }).RTCPeerConnection;
const cameraTrack = () =>
  new (
    wrtc as unknown as { nonstandard: { RTCVideoSource: new () => { createTrack(): MediaStreamTrack } } }
  ).nonstandard.RTCVideoSource().createTrack();
/** Each m-line's kind and direction, in order. */
const shape = (sdp: string) =>
  sdp
    .split(/\r?\nm=/)
    .slice(1)
    .map((m) => `${m.split(" ")[0]} ${/a=(sendrecv|sendonly|recvonly|inactive)/.exec(m)?.[1]}`);

describe("connect()'s camera option (the offer a page sends)", () => {
  test("a camera track adds a sendonly video m-line after the avatar's video and audio", async () => {
    const track = cameraTrack();
    const prepared = prepareOffer({ RTCPeerConnection: Peer, camera: track, iceGatheringTimeoutMs: 500 });
    try {
      await prepared.ready;
      expect(shape(prepared.pc.localDescription!.sdp)).toEqual(["video recvonly", "audio recvonly", "video sendonly"]);
      expect(prepared.camera?.track).toBe(track);
      await prepared.camera!.replaceTrack(null); // what LiveMedia.setCamera(null) does: stop sending, keep the slot
      expect(prepared.camera!.track).toBeNull();
    } finally {
      prepared.close();
      track.stop();
    }
  });

  test("the camera is sent at CAMERA_MAX_FPS at most (the box looks at <= 2 pictures a second and decodes every frame sent)", async () => {
    // This libwebrtc build does not report maxFramerate back from getParameters(), so the init the
    // page's peer is given is what is checked (Chromium honours it).
    const inits: RTCRtpTransceiverInit[] = [];
    class Recording extends Peer {
      override addTransceiver(kind: MediaStreamTrack | string, init?: RTCRtpTransceiverInit): RTCRtpTransceiver {
        inits.push(init ?? {});
        return super.addTransceiver(kind, init);
      }
    }
    const prepared = prepareOffer({ RTCPeerConnection: Recording, camera: null, iceGatheringTimeoutMs: 500 });
    try {
      await prepared.ready;
      expect(inits.map((i) => i.sendEncodings?.map((e) => e.maxFramerate) ?? null)).toEqual([null, null, [CAMERA_MAX_FPS]]);
      expect(CAMERA_MAX_FPS).toBeLessThanOrEqual(5);
    } finally {
      prepared.close();
    }
  });

  test("camera: null reserves the slot with nothing sent yet; no camera option is today's receive-only offer", async () => {
    const slot = prepareOffer({ RTCPeerConnection: Peer, camera: null, iceGatheringTimeoutMs: 500 });
    const plain = prepareOffer({ RTCPeerConnection: Peer, iceGatheringTimeoutMs: 500 });
    try {
      await Promise.all([slot.ready, plain.ready]);
      expect(shape(slot.pc.localDescription!.sdp)).toEqual(["video recvonly", "audio recvonly", "video sendonly"]);
      expect(slot.camera?.track ?? null).toBeNull();
      expect(shape(plain.pc.localDescription!.sdp)).toEqual(["video recvonly", "audio recvonly"]);
      expect(plain.camera).toBeNull();
    } finally {
      slot.close();
      plain.close();
    }
  });
});
