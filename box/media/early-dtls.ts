// A ClientHello that arrives before the box's DTLS server exists is kept and answered.
// werift starts a transport's DTLS server only once its own ICE has completed, and drops the DTLS
// datagrams that came before: a client whose ICE completes first (libwebrtc, aiortc: they send the
// hello the instant their side is writable) then waits for its 1 s retransmit before any media.
import type { RTCDtlsTransport } from "werift";

/** DTLS records start with a content type of 20..63 (RFC 7983's demultiplexing range). */
const isDtlsRecord = (b: Buffer): boolean => b.length > 13 && b[0] > 19 && b[0] < 64;

/** A handshake record (22) whose first message is a ClientHello (1): the 13-byte record header, then its type. */
const isClientHello = (b: Buffer): boolean => b[0] === 22 && b[13] === 1;

/** Enough for a hello in fragments; anything past it is the client's to resend. */
const MAX_KEPT = 16;

/** Where werift's DTLS socket takes its datagrams (`DtlsSocket.transport.socket.onData`). */
interface DtlsInternals {
  dtls?: { transport?: { socket?: { onData?: (buf: Buffer) => void } } };
}

/**
 * Keeps the DTLS datagrams a transport receives while it is still `new`, and hands them to its
 * DTLS server the moment werift creates it (synchronously after `connecting`, so the next
 * microtask finds it). Returns a function that stops keeping.
 */
export function keepEarlyDtls(t: RTCDtlsTransport): () => void {
  const early: Buffer[] = [];
  const data = t.iceTransport.connection.onData.subscribe((buf: Buffer) => {
    if (t.state !== "new" || !isDtlsRecord(buf)) return;
    // A retransmitted hello replaces the kept one: the server answers one hello, not each copy.
    if (isClientHello(buf)) early.length = 0;
    if (early.length < MAX_KEPT) early.push(buf);
  });
  const stop = (): void => {
    data.unSubscribe();
    state.unSubscribe();
    early.length = 0;
  };
  const state = t.onStateChange.subscribe((s) => {
    if (s !== "connecting") return stop();
    queueMicrotask(() => {
      const socket = (t as unknown as DtlsInternals).dtls?.transport?.socket;
      const kept = early.splice(0);
      stop();
      if (typeof socket?.onData === "function") for (const buf of kept) socket.onData(buf);
    });
  });
  return stop;
}
