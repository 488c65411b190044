// AWS event-stream binary framing (application/vnd.amazon.eventstream), written independently of
// the SDK so the SDK's decoder is tested against the wire layout itself:
// [total length u32][headers length u32][prelude CRC32][headers][payload][message CRC32].
import { crc32 } from "../../../shared/util/crc32.ts";

/** Encodes one message; every header is a string (type 7), which is all Bedrock sends. */
export function encodeEventMessage(headers: Record<string, string>, payload: Uint8Array): Buffer {
  const parts: Buffer[] = [];
  for (const [name, value] of Object.entries(headers)) {
    const n = Buffer.from(name, "utf8");
    const v = Buffer.from(value, "utf8");
    const h = Buffer.alloc(1 + n.length + 1 + 2 + v.length);
    h.writeUInt8(n.length, 0);
    n.copy(h, 1);
    h.writeUInt8(7, 1 + n.length);
    h.writeUInt16BE(v.length, 2 + n.length);
    v.copy(h, 4 + n.length);
    parts.push(h);
  }
  const headerBytes = Buffer.concat(parts);
  const total = 12 + headerBytes.length + payload.length + 4;
  const msg = Buffer.alloc(total);
  msg.writeUInt32BE(total, 0);
  msg.writeUInt32BE(headerBytes.length, 4);
  msg.writeUInt32BE(crc32(msg.subarray(0, 8)), 8);
  headerBytes.copy(msg, 12);
  Buffer.from(payload).copy(msg, 12 + headerBytes.length);
  msg.writeUInt32BE(crc32(msg.subarray(0, total - 4)), total - 4);
  return msg;
}

export function eventFrame(eventType: string, body: unknown): Buffer {
  return encodeEventMessage(
    { ":event-type": eventType, ":content-type": "application/json", ":message-type": "event" },
    Buffer.from(JSON.stringify(body)),
  );
}

export function exceptionFrame(exceptionType: string, message: string): Buffer {
  return encodeEventMessage(
    { ":exception-type": exceptionType, ":content-type": "application/json", ":message-type": "exception" },
    Buffer.from(JSON.stringify({ message })),
  );
}
