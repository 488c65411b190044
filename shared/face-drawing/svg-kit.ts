// Small SVG helpers for drawing the stock faces: smooth closed outlines and gradients.

export type Pt = [number, number];

const f = (n: number) => Number(n.toFixed(2));

/** A smooth path through `pts` (Catmull-Rom turned into cubic Beziers). */
export function smoothPath(pts: Pt[], closed = true, tension = 1): string {
  const n = pts.length;
  const get = (i: number): Pt => (closed ? pts[(i + n) % n] : pts[Math.max(0, Math.min(n - 1, i))]);
  let d = `M${f(pts[0][0])},${f(pts[0][1])}`;
  const last = closed ? n : n - 1;
  for (let i = 0; i < last; i++) {
    const p0 = get(i - 1),
      p1 = get(i),
      p2 = get(i + 1),
      p3 = get(i + 2);
    const k = tension / 6;
    const c1: Pt = [p1[0] + (p2[0] - p0[0]) * k, p1[1] + (p2[1] - p0[1]) * k];
    const c2: Pt = [p2[0] - (p3[0] - p1[0]) * k, p2[1] - (p3[1] - p1[1]) * k];
    d += ` C${f(c1[0])},${f(c1[1])} ${f(c2[0])},${f(c2[1])} ${f(p2[0])},${f(p2[1])}`;
  }
  return closed ? `${d} Z` : d;
}

/** Mirrors points drawn for the image-left half about x = cx, in reverse order. */
export function mirror(pts: Pt[], cx: number): Pt[] {
  return pts.map(([x, y]) => [2 * cx - x, y] as Pt).reverse();
}

export function radial(id: string, stops: [number, string, number?][], cx = 0.5, cy = 0.5, r = 0.5): string {
  return `<radialGradient id="${id}" cx="${cx}" cy="${cy}" r="${r}">${stopsSvg(stops)}</radialGradient>`;
}

export function linear(id: string, stops: [number, string, number?][], x1 = 0, y1 = 0, x2 = 0, y2 = 1): string {
  return `<linearGradient id="${id}" x1="${x1}" y1="${y1}" x2="${x2}" y2="${y2}">${stopsSvg(stops)}</linearGradient>`;
}

function stopsSvg(stops: [number, string, number?][]): string {
  return stops.map(([o, c, a]) => `<stop offset="${o}" stop-color="${c}"${a === undefined ? "" : ` stop-opacity="${a}"`}/>`).join("");
}

/** A cubic through (x0,y0) .. (x1,y1) whose middle reaches `peak` (y) at mid-x. */
export function arc(x0: number, y0: number, x1: number, y1: number, peak: number, skew = 0): string {
  const mid = (y0 + y1) / 2;
  const cy = mid + ((peak - mid) * 4) / 3;
  const dx = (x1 - x0) / 3;
  return `M${f(x0)},${f(y0)} C${f(x0 + dx + skew)},${f(cy)} ${f(x1 - dx + skew)},${f(cy)} ${f(x1)},${f(y1)}`;
}

/** The same cubic continuing from the current point (no M). */
export function arcTo(x0: number, y0: number, x1: number, y1: number, peak: number, skew = 0): string {
  return arc(x0, y0, x1, y1, peak, skew).replace(/^M[^ ]+ /, " ");
}
