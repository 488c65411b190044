// Implements: what the GPU page's terminate dialog says is lost: for a local box, its process (its
// data folder stays); for a cloud machine, the machine, its disk and what the box kept only there.
import type { GpuRecord } from "../../../shared/wire/gpu.ts";
import { h } from "./dom.ts";
import { isLocal } from "./gpu-facts.ts";

export function terminateWarning(g: GpuRecord | undefined): HTMLElement[] {
  return g && isLocal(g)
    ? [
        h(
          "p",
          {},
          "The box process on this machine ends and the portal forgets it: calls in progress end, and using the avatar again means launching a new box.",
        ),
        h(
          "p",
          {},
          "Its data folder on this machine (PORTAL_BOX_DATA_DIR: prepared avatars, clips, voices) stays on disk, and a new box reads it again.",
        ),
      ]
    : [
        h("p", {}, "The machine ", h("code", {}, g?.instance_id ?? ""), " and its disk are deleted for good. Calls in progress end."),
        h(
          "p",
          {},
          "Lost with it: whatever the box kept only on that disk (prepared faces, clips not yet archived, voices uploaded to it, conversation transcripts). Portraits and clips archived in the portal stay in your library.",
        ),
        h(
          "p",
          {},
          "A new launch starts from the image and takes several minutes. This cannot be undone; Stop keeps the machine and costs nothing while stopped.",
        ),
      ];
}
