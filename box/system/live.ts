// The seam between HTTP routes and the live session (one per box, fact 1).
export interface LiveControl {
  /** Synchronous teardown of the live session, if any. */
  disconnect(): void;
  /** Stop speech at the next frame; a no-op when nothing speaks. */
  interrupt(): void;
  /** For GET /health: the picked identity and the face playing now. */
  health(): { avatar: string | null; speaking_face: string | null };
}
