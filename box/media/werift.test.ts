import { describe, expect, test } from "vitest";
import { ntpNow, werift } from "./werift.ts";

const NTP_UNIX_OFFSET_MS = 2_208_988_800_000;
const ntpToUnixMs = (ntp: bigint) => Number(ntp >> 32n) * 1000 + (Number(ntp & 0xffffffffn) / 2 ** 32) * 1000 - NTP_UNIX_OFFSET_MS;

describe("werift with correct sender-report clocks", () => {
  test("ntpNow() is the wall clock with a binary fraction", () => {
    expect(Math.abs(ntpToUnixMs(ntpNow()) - Date.now())).toBeLessThan(5);
  });

  test("an RTCP sender report maps the last packet's RTP time to the wall clock of its sending", async () => {
    const { RTCPeerConnection, MediaStreamTrack, RtcpSrPacket, useVP8 } = werift;
    const config = { iceServers: [], iceUseIpv6: false, iceAdditionalHostAddresses: ["127.0.0.1"], codecs: { video: [useVP8()] } };
    const sender = new RTCPeerConnection(config);
    const receiver = new RTCPeerConnection(config);
    try {
      const track = new MediaStreamTrack({ kind: "video" });
      sender.addTransceiver(track, { direction: "sendonly" });
      receiver.addTransceiver("video", { direction: "recvonly" });
      const reports: bigint[] = [];
      receiver.getTransceivers()[0].receiver.onRtcp.subscribe((p) => {
        if (p.type === RtcpSrPacket.type) reports.push((p as InstanceType<typeof RtcpSrPacket>).senderInfo.ntpTimestamp);
      });
      const gathered = async (pc: InstanceType<typeof RTCPeerConnection>) => {
        if (pc.iceGatheringState !== "complete") await pc.iceGatheringStateChange.watch((s) => s === "complete", 5_000);
        return pc.localDescription!;
      };
      const connected = [sender, receiver].map((pc) => pc.connectionStateChange.watch((s) => s === "connected", 10_000));
      await sender.setLocalDescription(await sender.createOffer());
      await receiver.setRemoteDescription(await gathered(sender));
      await receiver.setLocalDescription(await receiver.createAnswer());
      await sender.setRemoteDescription(await gathered(receiver));
      await Promise.all(connected);
      const packet = Buffer.alloc(14);
      packet.set([0x80, 96], 0);
      packet[12] = 0x10;
      // One packet, then silence: every later report carries this packet's send time.
      await new Promise((r) => setTimeout(r, 200));
      const sentAt = Date.now();
      track.writeRtp(packet);
      const deadline = Date.now() + 5_000;
      while (reports.length === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      expect(reports.length, "a sender report arrived").toBeGreaterThan(0);
      expect(Math.abs(ntpToUnixMs(reports.at(-1)!) - sentAt)).toBeLessThan(50);
    } finally {
      await Promise.all([sender.close(), receiver.close()]);
    }
  });
});
