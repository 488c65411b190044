// Mouth change between two decoded frames with the idle head motion taken out: the idle face
// drifts a few pixels, so the smallest mean luma difference over small shifts is the mouth's own.
import type { ReceivedFrame } from "../../box/media/testing/wrtc-client.ts";

export type Box = { x: number; y: number; width: number; height: number };

/** Smallest mean |a - shifted b| (luma, 0-255) inside `box` over shifts of up to `reach` px. */
export function mouthChange(a: ReceivedFrame, b: ReceivedFrame, box: Box, reach = 3): number {
  let best = Infinity;
  for (let dy = -reach; dy <= reach; dy++) {
    for (let dx = -reach; dx <= reach; dx++) {
      let sum = 0;
      for (let y = box.y; y < box.y + box.height && sum < best; y++) {
        const ra = y * a.width;
        const rb = (y + dy) * b.width + dx;
        for (let x = box.x; x < box.x + box.width; x++) sum += Math.abs(a.data[ra + x] - b.data[rb + x]);
      }
      if (sum < best) best = sum;
    }
  }
  return best / (box.width * box.height);
}
