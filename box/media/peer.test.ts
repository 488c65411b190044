import { readdirSync } from "node:fs";
import os from "node:os";
import wrtc from "@roamhq/wrtc";
import { beforeAll, describe, expect, test } from "vitest";
import { ApiError } from "../../shared/errors/api-error.ts";
import { createAnswerPeer, dtlsServerAnswer } from "./peer.ts";
import { waitFor } from "./testing/processes.ts";
import { offeredPeer } from "./testing/wrtc-offer.ts";

const openFds = () => readdirSync("/proc/self/fd").length;
let offer = "";

beforeAll(async () => {
  // A real recvonly offer (video + audio) from libwebrtc, the shape browsers send.
  const pc = new (wrtc as unknown as { RTCPeerConnection: typeof RTCPeerConnection }).RTCPeerConnection({ iceServers: [] });
  pc.addTransceiver("video", { direction: "recvonly" });
  pc.addTransceiver("audio", { direction: "recvonly" });
  await pc.setLocalDescription(await pc.createOffer());
  offer = pc.localDescription!.sdp;
  pc.close();
});

describe("createAnswerPeer", () => {
  test("answers with VP8 and Opus, loopback candidates only, one sync group; close frees its sockets", async () => {
    const before = openFds();
    const peer = await createAnswerPeer({ sdp: offer, type: "offer" }, { loopbackOnly: true });
    const sdp = peer.answer.sdp;
    expect(peer.answer.type).toBe("answer");
    expect(sdp).toMatch(/m=video \d+ UDP\/TLS\/RTP\/SAVPF \d+[\s\S]*a=rtpmap:\d+ VP8\/90000/);
    expect(sdp).toMatch(/m=audio [\s\S]*a=rtpmap:\d+ opus\/48000\/2/);
    expect(sdp).toMatch(/a=candidate:\S+ 1 udp \d+ 127\.0\.0\.1 /);
    const streams = [...sdp.matchAll(/a=msid:(\S+) /g)].map((m) => m[1]);
    expect(streams.length, "both tracks carry a stream id").toBe(2);
    expect(streams[0], "audio and video share the stream id the receiver lip-syncs by").toBe(streams[1]);
    expect(openFds()).toBeGreaterThan(before);
    peer.close();
    await waitFor(() => openFds() <= before, 5_000, "the peer's sockets were closed");
  });

  test("loopback-only: every candidate in the answer is 127.0.0.1 and every ICE socket listens on loopback only", async () => {
    // A machine with a routable address (an aiortc client was offered this box's 192.0.2.x):
    // werift reads the host's interfaces when it gathers, so one is added here in case this
    // machine has only loopback.
    const real = os.networkInterfaces;
    const fake = {
      family: "IPv4",
      internal: false,
      address: "192.0.2.77",
      netmask: "255.255.255.0",
      mac: "02:00:00:00:00:01",
      cidr: "192.0.2.77/24",
    } as const;
    os.networkInterfaces = () => ({ ...real(), test0: [fake] });
    let peer: Awaited<ReturnType<typeof createAnswerPeer>> | null = null;
    try {
      peer = await createAnswerPeer({ sdp: offer, type: "offer" }, { loopbackOnly: true });
    } finally {
      os.networkInterfaces = real;
    }
    try {
      const candidates = peer.answer.sdp.split(/\r?\n/).filter((l) => l.startsWith("a=candidate:"));
      expect(candidates.length, "the answer carries candidates").toBeGreaterThan(0);
      for (const line of candidates)
        expect(line, "a loopback host candidate").toMatch(/^a=candidate:\S+ \d+ udp \d+ 127\.0\.0\.1 \d+ typ host( |$)/);
      const bound = peer.pc.iceTransports.flatMap(
        (t) => (t.connection as unknown as { protocols: { transport: { socket: { address(): { address: string } } } }[] }).protocols,
      );
      expect(bound.length).toBeGreaterThan(0);
      for (const p of bound) expect(p.transport.socket.address().address, "the socket is bound to loopback").toBe("127.0.0.1");
    } finally {
      peer.close();
    }
  });

  const malformed: [string, () => unknown][] = [
    ["not an object", () => "v=0"],
    ["type answer", () => ({ sdp: offer, type: "answer" })],
    ["empty sdp", () => ({ sdp: "", type: "offer" })],
    ["garbage", () => ({ sdp: "garbage", type: "offer" })],
    ["no video", () => ({ sdp: offer.slice(0, offer.indexOf("m=video")), type: "offer" })],
    ["no ICE credentials", () => ({ sdp: offer.replace(/a=ice-(ufrag|pwd):\S+\r\n/g, ""), type: "offer" })],
    ["broken m-line", () => ({ sdp: offer.replace(/m=video \d+/, "m=video xyz"), type: "offer" })],
    ["truncated", () => ({ sdp: offer.slice(0, offer.indexOf("m=audio") + 40), type: "offer" })],
  ];
  for (const [name, make] of malformed) {
    test(`a malformed offer (${name}) is a 400 invalid_sdp and leaves no socket open`, async () => {
      const before = openFds();
      const err = await createAnswerPeer(make(), { loopbackOnly: true }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ApiError);
      expect(err).toMatchObject({ status: 400, code: "invalid_sdp" });
      await waitFor(() => openFds() <= before, 5_000, "no socket was left open");
    });
  }
});

describe("an offer that also sends the client's camera or screen", () => {
  /** A browser-shaped offer: the avatar's video and audio recvonly, then a camera track sendonly. */
  async function cameraOffer(): Promise<string> {
    const pc = new (wrtc as unknown as { RTCPeerConnection: typeof RTCPeerConnection }).RTCPeerConnection({ iceServers: [] });
    pc.addTransceiver("video", { direction: "recvonly" });
    pc.addTransceiver("audio", { direction: "recvonly" });
    const source = new (
      wrtc as unknown as { nonstandard: { RTCVideoSource: new () => { createTrack(): MediaStreamTrack } } }
    ).nonstandard.RTCVideoSource();
    const camera = source.createTrack();
    pc.addTransceiver(camera, { direction: "sendonly" });
    await pc.setLocalDescription(await pc.createOffer());
    const sdp = pc.localDescription!.sdp;
    camera.stop();
    pc.close();
    return sdp;
  }
  /** Each m-line's kind and direction, in order. */
  const shape = (sdp: string) =>
    sdp
      .split(/\r?\nm=/)
      .slice(1)
      .map((m) => `${m.split(" ")[0]} ${/a=(sendrecv|sendonly|recvonly|inactive)/.exec(m)?.[1]}`);

  test("is answered with the camera's m-line recvonly, after the avatar's video and audio, when the box looks", async () => {
    const peer = await createAnswerPeer({ sdp: await cameraOffer(), type: "offer" }, { loopbackOnly: true, receiveClientVideo: true });
    try {
      expect(shape(peer.answer.sdp)).toEqual(["video sendonly", "audio sendonly", "video recvonly"]);
      expect(peer.answer.sdp.split(/\r?\nm=/)[3]).toMatch(/a=rtpmap:\d+ VP8\/90000/);
      expect(peer.clientVideo?.mid).toBe("2");
    } finally {
      peer.close();
    }
  });

  test("is answered inactive when the box does not look (BOX_PERCEPTION=off): the client sends nothing", async () => {
    const peer = await createAnswerPeer({ sdp: await cameraOffer(), type: "offer" }, { loopbackOnly: true, receiveClientVideo: false });
    try {
      expect(shape(peer.answer.sdp)).toEqual(["video sendonly", "audio sendonly", "video inactive"]);
      expect(peer.clientVideo).toBeNull();
    } finally {
      peer.close();
    }
  });

  test("an offer without a client video track gets today's answer whether the box looks or not", async () => {
    const looking = await createAnswerPeer({ sdp: offer, type: "offer" }, { loopbackOnly: true, receiveClientVideo: true });
    const blind = await createAnswerPeer({ sdp: offer, type: "offer" }, { loopbackOnly: true });
    try {
      expect(shape(looking.answer.sdp)).toEqual(["video sendonly", "audio sendonly"]);
      expect(shape(looking.answer.sdp)).toEqual(shape(blind.answer.sdp));
      expect(looking.clientVideo).toBeNull();
    } finally {
      looking.close();
      blind.close();
    }
  });
});

describe("dtlsServerAnswer", () => {
  const answer = "v=0\r\nm=video 9 UDP/TLS/RTP/SAVPF 96\r\na=setup:active\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\na=setup:active\r\n";
  test("an actpass offer gets a passive answer on every m-line (the box is the DTLS server)", () => {
    expect(dtlsServerAnswer("v=0\r\na=setup:actpass\r\n", answer)).toBe(answer.replaceAll("a=setup:active", "a=setup:passive"));
  });
  test("an offer that already chose a role is answered as werift answered it", () => {
    expect(dtlsServerAnswer("v=0\r\na=setup:passive\r\n", answer)).toBe(answer);
  });
  test("the answer to a real libwebrtc offer says passive, and werift takes the server role", async () => {
    expect(offer).toMatch(/^a=setup:actpass\r?$/m);
    const peer = await createAnswerPeer({ sdp: offer, type: "offer" }, { loopbackOnly: true });
    try {
      expect(peer.answer.sdp).toMatch(/^a=setup:passive\r?$/m);
      expect(peer.answer.sdp).not.toMatch(/^a=setup:active\r?$/m);
      expect(peer.pc.dtlsTransports.map((t) => t.role)).toEqual(["server"]);
    } finally {
      peer.close();
    }
  });
});

describe("the peer's end", () => {
  // libwebrtc in @roamhq/wrtc sends no close_notify on close() (Chromium does: e2e/live.spec.ts
  // checks that end to end), so here werift's DTLS socket is handed the alert's effect directly.
  test("a DTLS close_notify from the client ends the peer as closed, not after the ~30 s consent check", async () => {
    const { client, peer } = await offeredPeer();
    try {
      await client.setRemoteDescription(peer.answer as RTCSessionDescriptionInit);
      await peer.connected;
      let how: string | null = null;
      void peer.ended.then((h) => (how = h));
      await new Promise((r) => setTimeout(r, 100));
      expect(how, "a connected peer lives on").toBeNull();
      const [transport] = peer.pc.dtlsTransports as unknown as { dtls: { onClose: { execute(): void } } }[];
      transport!.dtls.onClose.execute(); // what werift's record layer does with an alert record
      await waitFor(() => how !== null, 1_000, "the peer ended");
      expect(how).toBe("closed");
    } finally {
      client.close();
      peer.close();
    }
  });
});

describe("a ClientHello sent before the box's DTLS server is up", () => {
  test("is kept and answered at once, not after the client's next retransmit", async () => {
    const { client, peer } = await offeredPeer(["video"]);
    try {
      const [t] = peer.pc.dtlsTransports;
      // The box's DTLS server starts 300 ms after its ICE completes: libwebrtc's hello comes first.
      const start = t.start.bind(t);
      t.start = async () => (await new Promise((r) => setTimeout(r, 300)), start());
      const events: string[] = [];
      const ice = t.iceTransport.connection;
      ice.onData.subscribe((b: Buffer) => void (b[0] === 22 && b[13] === 1 && events.push(`hello in (${t.state})`)));
      const send = ice.send.bind(ice);
      ice.send = (b: Buffer) => (b[0] > 19 && b[0] < 64 && events.push("dtls out"), send(b));
      await client.setRemoteDescription(peer.answer as RTCSessionDescriptionInit);
      await peer.connected;
      expect(events[0], "the client's hello came before the server").toBe("hello in (new)");
      // Once the server is up, it speaks first: it answers the hello it was handed.
      expect(events.find((e) => e !== "hello in (new)")).toBe("dtls out");
    } finally {
      client.close();
      peer.close();
    }
  });
});
