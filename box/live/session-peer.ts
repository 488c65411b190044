// Implements: the peer of a live session and the perception wiring: answers the client's offer and,
// when the box looks at the client (BOX_PERCEPTION) and the offer carries a camera or screen track,
// starts a Perception of the session's own on it. Apart from the session so the media clock and
// the speech queue do not depend on how the client's picture is received.
import { createAnswerPeer, type AnswerPeer } from "../media/peer.ts";
import { Perception } from "../perception/perception.ts";
import { photoLandmarker } from "../faces/prepare-photo.ts";
import type { LiveSessionOptions } from "./session-types.ts";

/** Answers `offer` (throws ApiError on a bad SDP); `perception` is null when no client track is received. */
export async function answerClient(
  offer: unknown,
  options: LiveSessionOptions,
): Promise<{ peer: AnswerPeer; perception: Perception | null }> {
  const peer = await createAnswerPeer(offer, { loopbackOnly: options.loopbackOnly, receiveClientVideo: options.perception ?? false });
  if (!peer.clientVideo) return { peer, perception: null };
  // Its own ffmpeg child, apart from the avatar's encoder: a bad camera never slows the avatar.
  const perception = new Perception({ ffmpegPath: options.ffmpegPath, landmarker: photoLandmarker });
  perception.attach(peer.clientVideo);
  return { peer, perception };
}
