// A libwebrtc client (@roamhq/wrtc) with its recvonly offer gathered, and the box's answer peer for
// it on loopback: the start of every peer test. The caller sets the answer on the client (a test
// may first change the box's peer) and closes both.
import wrtc from "@roamhq/wrtc";
import { createAnswerPeer, type AnswerPeer } from "../peer.ts";
import { waitFor } from "./processes.ts";

export type WrtcPeer = globalThis.RTCPeerConnection;
export const WrtcPeerConnection = (wrtc as unknown as { RTCPeerConnection: typeof globalThis.RTCPeerConnection }).RTCPeerConnection;

export async function offeredPeer(
  kinds: readonly ("video" | "audio")[] = ["video", "audio"],
): Promise<{ client: WrtcPeer; peer: AnswerPeer }> {
  const client: WrtcPeer = new WrtcPeerConnection({ iceServers: [] });
  try {
    for (const kind of kinds) client.addTransceiver(kind, { direction: "recvonly" });
    await client.setLocalDescription(await client.createOffer());
    await waitFor(() => client.iceGatheringState === "complete", 5_000, "the client gathered its candidates");
    return { client, peer: await createAnswerPeer({ sdp: client.localDescription!.sdp, type: "offer" }, { loopbackOnly: true }) };
  } catch (err) {
    client.close();
    throw err;
  }
}
