// Implements: docs/api-notes.md "Perception": the IVF container the camera's VP8 frames reach
// ffmpeg in (a 32-byte file header, then a 12-byte header per frame; timebase 1/90000, RTP's clock).
export function ivfFileHeader(width: number, height: number): Buffer {
  const h = Buffer.alloc(32);
  h.write("DKIF", 0, "ascii");
  h.writeUInt16LE(0, 4); // version
  h.writeUInt16LE(32, 6); // header size
  h.write("VP80", 8, "ascii");
  h.writeUInt16LE(width, 12);
  h.writeUInt16LE(height, 14);
  h.writeUInt32LE(90_000, 16); // timebase denominator
  h.writeUInt32LE(1, 20); // timebase numerator
  h.writeUInt32LE(0, 24); // frame count (unknown: a live stream)
  return h;
}

export function ivfFrameHeader(size: number, pts: number): Buffer {
  const h = Buffer.alloc(12);
  h.writeUInt32LE(size, 0);
  h.writeBigUInt64LE(BigInt(Math.max(0, Math.floor(pts))), 4);
  return h;
}
