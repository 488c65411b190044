// Implements: docs/api-notes.md "Perception": whole JPEG images out of ffmpeg's image2pipe byte
// stream. Segments are walked by their lengths up to the scan; in the scan, 0xFF is followed by
// 0x00 (stuffing) or a restart marker, so the first other marker there is the image's end (EOI).
export class JpegSplitter {
  private buf: Buffer = Buffer.alloc(0);

  constructor(private readonly onImage: (jpeg: Buffer) => void) {}

  push(chunk: Buffer): void {
    this.buf = this.buf.length ? Buffer.concat([this.buf, chunk]) : chunk;
    for (;;) {
      const end = this.imageEnd();
      if (end === null) break;
      if (end > 0) this.onImage(Buffer.from(this.buf.subarray(0, end)));
      this.buf = this.buf.subarray(Math.max(end, 1));
    }
  }

  /** Byte length of the complete image at the buffer's start; 0 when the start is not an image; null when incomplete. */
  private imageEnd(): number | null {
    const b = this.buf;
    if (b.length < 2) return null;
    if (b[0] !== 0xff || b[1] !== 0xd8) {
      const next = b.indexOf(Buffer.from([0xff, 0xd8]), 1);
      this.buf = next < 0 ? Buffer.alloc(0) : b.subarray(next);
      return this.buf.length >= 2 ? this.imageEnd() : null;
    }
    let i = 2;
    for (;;) {
      if (i + 4 > b.length) return null;
      if (b[i] !== 0xff) return 0;
      const marker = b[i + 1]!;
      const length = b.readUInt16BE(i + 2);
      i += 2 + length;
      if (marker === 0xda) break; // start of scan: entropy-coded data follows
    }
    for (; i + 1 < b.length; i++) {
      if (b[i] !== 0xff) continue;
      const m = b[i + 1]!;
      if (m === 0x00 || (m >= 0xd0 && m <= 0xd7) || m === 0xff) continue;
      if (m === 0xd9) return i + 2;
      return 0; // another marker inside the scan: not a baseline image from ffmpeg
    }
    return null;
  }
}
