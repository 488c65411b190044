import type { RTCDtlsTransport, RTCPeerConnection as WeriftPeer } from "werift";
import { describe, expect, test } from "vitest";
import { rtcpBye } from "./goodbye.ts";
import { createAnswerPeer, type AnswerPeer } from "./peer.ts";
import { waitFor } from "./testing/processes.ts";
import { offeredPeer } from "./testing/wrtc-offer.ts";
import { werift } from "./werift.ts";

/** The sources each BYE in an RTCP compound packet names (RFC 3550 §6.6). */
function byeSources(compound: Buffer): number[] {
  const ssrcs: number[] = [];
  for (let pos = 0; pos + 4 <= compound.length; ) {
    const count = compound[pos]! & 0x1f;
    const words = compound.readUInt16BE(pos + 2) + 1;
    if (compound[pos + 1] === 203) for (let i = 0; i < count; i++) ssrcs.push(compound.readUInt32BE(pos + 4 + 4 * i));
    pos += 4 * words;
  }
  return ssrcs;
}

describe("rtcpBye", () => {
  test("is a compound packet: an empty receiver report, then one BYE naming every source (RFC 3550)", () => {
    const packet = rtcpBye([0x11223344, 0xfedcba98]);
    expect([...packet.subarray(0, 8)]).toEqual([0x80, 201, 0, 1, 0x11, 0x22, 0x33, 0x44]);
    expect([...packet.subarray(8, 12)]).toEqual([0x82, 203, 0, 2]);
    expect(byeSources(packet)).toEqual([0x11223344, 0xfedcba98]);
    expect(packet.length).toBe(20);
    expect(() => rtcpBye([])).toThrow(RangeError);
  });
});

describe("the box closing a peer tells the client at once", () => {
  test("a werift client gets an SRTCP-protected BYE for each of the box's SSRCs and its DTLS transport closes", async () => {
    const config = {
      iceServers: [],
      iceUseIpv6: false,
      iceAdditionalHostAddresses: ["127.0.0.1"],
      codecs: { video: [werift.useVP8()], audio: [werift.useOPUS()] },
    };
    const client: WeriftPeer = new werift.RTCPeerConnection(config);
    let peer: AnswerPeer | null = null;
    try {
      client.addTransceiver("video", { direction: "recvonly" });
      client.addTransceiver("audio", { direction: "recvonly" });
      await client.setLocalDescription(await client.createOffer());
      if (client.iceGatheringState !== "complete") await client.iceGatheringStateChange.watch((s) => s === "complete", 5_000);
      peer = await createAnswerPeer({ sdp: client.localDescription!.sdp, type: "offer" }, { loopbackOnly: true });
      const connected = client.connectionStateChange.watch((s) => s === "connected", 10_000);
      await client.setRemoteDescription(peer.answer);
      await Promise.all([connected, peer.connected]);
      const [transport] = client.dtlsTransports as (RTCDtlsTransport & { srtcp: { decrypt(b: Buffer): Buffer } })[];
      // What the client's SRTCP session decrypts: a BYE that was not SRTCP-protected never shows here.
      const rtcp: Buffer[] = [];
      const decrypt = transport!.srtcp.decrypt.bind(transport!.srtcp);
      transport!.srtcp.decrypt = (b: Buffer) => {
        const plain = decrypt(b);
        rtcp.push(Buffer.from(plain));
        return plain;
      };
      const boxSsrcs = peer.pc.getSenders().map((s) => s.ssrc);
      expect(boxSsrcs.length, "the box sends video and audio").toBe(2);
      expect(transport!.state).toBe("connected");

      peer.close();
      // ICE consent would take ~30 s; the goodbye arrives in milliseconds (5 s: a loaded machine).
      await waitFor(() => transport!.state === "closed", 5_000, "the client's DTLS transport closed");
      await waitFor(() => rtcp.some((p) => byeSources(p).length > 0), 5_000, "the client received an RTCP BYE");
      const said = rtcp.flatMap(byeSources);
      expect([...new Set(said)].sort()).toEqual([...boxSsrcs].sort());
    } finally {
      peer?.close();
      await client.close();
    }
  });

  test("libwebrtc's DTLS transport closes after the box closes, not after the ~30 s consent check", async () => {
    const { client, peer } = await offeredPeer();
    try {
      await client.setRemoteDescription(peer.answer as RTCSessionDescriptionInit);
      await peer.connected;
      const transport = client.getReceivers()[0]!.transport!;
      await waitFor(() => transport.state === "connected", 5_000, "the client's DTLS is up");
      peer.close();
      await waitFor(() => transport.state === "closed", 5_000, "the client's DTLS transport closed");
    } finally {
      peer?.close();
      client.close();
    }
  });

  test("a peer whose client is gone (ICE consent failed) is closed without a goodbye", async () => {
    const { client, peer } = await offeredPeer(["video"]);
    try {
      await client.setRemoteDescription(peer.answer as RTCSessionDescriptionInit);
      await peer.connected;
      // What werift reports when the client stops answering consent checks; DTLS still looks up.
      peer.pc.connectionStateChange.execute("failed");
      expect(await peer.ended).toBe("failed");
      expect(peer.pc.dtlsTransports[0]!.state).toBe("connected");
      const ice = peer.pc.iceTransports[0]!.connection;
      const sent: Buffer[] = [];
      const send = ice.send.bind(ice);
      ice.send = (b: Buffer) => (sent.push(b), send(b));
      peer.close();
      await new Promise((r) => setTimeout(r, 100));
      // An alert record (21) or the goodbye's compound packet (it starts with a receiver report, 201).
      expect(
        sent.filter((b) => b[0] === 21 || b[1] === 201),
        "no alert, no BYE",
      ).toEqual([]);
    } finally {
      client.close();
      peer.close();
    }
  });
});
