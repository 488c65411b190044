// The box ending a session tells the client at once: an RTCP BYE for each of its SSRCs (RFC 3550
// §6.6, SRTCP-protected) and a DTLS close_notify alert (RFC 6347 §4.1 / RFC 5246 §7.2.1).
// werift 0.25 sends neither when it closes (its RTCDtlsTransport.stop() is a "todo impl send
// alert"), so a client the box dropped (a /disconnect, a new /connect, an idle window, the
// ceiling) learned of it only from ICE consent, ~30 s later. Both are built here with werift's
// own record and cipher layer and its SRTCP session.
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import type { RTCDtlsTransport, RTCPeerConnection } from "werift";

const CONTENT_ALERT = 21;
const ALERT_WARNING = 1;
const CLOSE_NOTIFY = 0;
const RTCP_RR = 201;
const RTCP_BYE = 203;

const require = createRequire(import.meta.url);
const builder = require(join(dirname(require.resolve("werift")), "../../dtls/src/record/builder.js")) as {
  createPlaintext?: (dtls: unknown) => (fragments: { type: number; fragment: Buffer }[], recordSequenceNumber: number) => unknown[];
};
if (typeof builder.createPlaintext !== "function") throw new Error("werift's layout changed: dtls record builder not found");
const createPlaintext = builder.createPlaintext;

/** The parts of werift's DTLS socket the alert is written with (`RTCDtlsTransport.dtls`). */
interface DtlsSocketInternals {
  connected?: boolean;
  dtls: { recordSequenceNumber: number; epoch: number };
  cipher: { encryptPacket(pkt: unknown): { serialize(): Buffer } };
  transport: { send(buf: Buffer): Promise<void> };
}

/**
 * An RTCP compound packet that says goodbye for `ssrcs`: an empty receiver report (a compound
 * packet starts with SR or RR, RFC 3550 §6.1) from the first SSRC, then one BYE naming them all.
 */
export function rtcpBye(ssrcs: readonly number[]): Buffer {
  if (ssrcs.length === 0 || ssrcs.length > 31) throw new RangeError(`a BYE names 1 to 31 sources, got ${ssrcs.length}`);
  const rr = Buffer.alloc(8);
  rr[0] = 0x80; // V=2, P=0, RC=0
  rr[1] = RTCP_RR;
  rr.writeUInt16BE(1, 2); // length in 32-bit words minus one
  rr.writeUInt32BE(ssrcs[0]! >>> 0, 4);
  const bye = Buffer.alloc(4 + 4 * ssrcs.length);
  bye[0] = 0x80 | ssrcs.length; // V=2, P=0, SC
  bye[1] = RTCP_BYE;
  bye.writeUInt16BE(ssrcs.length, 2);
  ssrcs.forEach((ssrc, i) => bye.writeUInt32BE(ssrc >>> 0, 4 + 4 * i));
  return Buffer.concat([rr, bye]);
}

/** The SSRCs the peer sends from over `transport` (each sender's, and its RTX stream's if negotiated). */
export function localSsrcs(pc: RTCPeerConnection, transport: RTCDtlsTransport): number[] {
  const ssrcs: number[] = [];
  for (const sender of pc.getSenders()) {
    if (sender.dtlsTransport !== transport) continue;
    ssrcs.push(sender.ssrc);
    // werift keeps the RTX payload type private; an RTX SSRC is in use only when it is set.
    if ((sender as unknown as { rtxPayloadType?: number }).rtxPayloadType !== undefined) ssrcs.push(sender.rtxSsrc);
  }
  return [...new Set(ssrcs)].slice(0, 31);
}

/** Sends a DTLS close_notify (level warning) in the transport's current epoch. */
export async function sendCloseNotify(transport: RTCDtlsTransport): Promise<void> {
  const socket = (transport as unknown as { dtls?: DtlsSocketInternals }).dtls;
  if (!socket) return;
  const [record] = createPlaintext(socket.dtls)(
    [{ type: CONTENT_ALERT, fragment: Buffer.from([ALERT_WARNING, CLOSE_NOTIFY]) }],
    ++socket.dtls.recordSequenceNumber,
  );
  await socket.transport.send(socket.cipher.encryptPacket(record).serialize());
}

/**
 * Tells the client the session is over on every connected transport: RTCP BYE first (media
 * ends), then close_notify (the transport ends). Resolves once both were handed to the socket;
 * never throws (a client already gone needs no goodbye).
 */
export async function sayGoodbye(pc: RTCPeerConnection): Promise<void> {
  const sends: Promise<unknown>[] = [];
  for (const transport of pc.dtlsTransports) {
    if (transport.state !== "connected") continue;
    const ssrcs = localSsrcs(pc, transport);
    try {
      const bye = rtcpBye(ssrcs);
      if (ssrcs.length > 0) sends.push(transport.sendRtcp([{ serialize: () => bye } as never]));
    } catch {}
    try {
      sends.push(sendCloseNotify(transport));
    } catch {}
  }
  await Promise.allSettled(sends);
}
