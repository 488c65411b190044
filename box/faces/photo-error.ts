// Implements: the readable refusal of a photo (issue 10: "none: the avatar ends `failed` with a
// readable `detail`"; bad input: truncated, polyglot, decompression bombs).

/** A photo that cannot become a face: the message is meant for the person who uploaded it. */
export class PhotoFaceError extends Error {
  override readonly name = "PhotoFaceError";
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
