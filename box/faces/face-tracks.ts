// Implements: following one person through an uploaded video (issue 10 item 3): the faces found
// sample by sample joined into tracks, and the track the idle loop follows.
import type { Point } from "../render/prepared-face.ts";
import { MESH } from "./mesh-anchors.ts";

/** Distance between the cheek points: the face's width, the yardstick for "near". */
export const cheekWidth = (m: Point[]) => Math.hypot(m[MESH.cheeks[0]].x - m[MESH.cheeks[1]].x, m[MESH.cheeks[0]].y - m[MESH.cheeks[1]].y);

/**
 * The people in a video, sample by sample: each face joins the track whose face was nearest in
 * the last few samples (nose within half a face width, a whole one after a miss), or starts one.
 * The face the loop follows is the track seen longest, larger faces counting more: a person the
 * detector loses now and then (turned, in shadow) does not hand the loop to someone else.
 */
export class FaceTracks {
  private readonly tracks: { at: Map<number, Point[]>; last: Point[]; lastIndex: number; weight: number }[] = [];

  add(index: number, meshes: Point[][]): void {
    const taken = new Set<number>();
    for (const mesh of meshes) {
      const nose = mesh[MESH.noseTip];
      let best = -1;
      let bestD = Infinity;
      this.tracks.forEach((t, k) => {
        const missed = index - t.lastIndex - 1;
        if (taken.has(k) || missed > 5) return;
        const n = t.last[MESH.noseTip];
        const d = Math.hypot(n.x - nose.x, n.y - nose.y);
        if (d < cheekWidth(t.last) * (missed > 0 ? 1 : 0.5) && d < bestD) (best = k), (bestD = d);
      });
      if (best < 0) {
        best = this.tracks.length;
        this.tracks.push({ at: new Map(), last: mesh, lastIndex: index, weight: 0 });
      }
      const t = this.tracks[best];
      taken.add(best);
      t.at.set(index, mesh);
      t.last = mesh;
      t.lastIndex = index;
      t.weight += cheekWidth(mesh);
    }
  }

  /** The main face's mesh per sample (null where it was not seen). */
  main(count: number): (Point[] | null)[] {
    const best = this.tracks.reduce<(typeof this.tracks)[number] | null>((b, t) => (!b || t.weight > b.weight ? t : b), null);
    return Array.from({ length: count }, (_, i) => best?.at.get(i) ?? null);
  }
}
