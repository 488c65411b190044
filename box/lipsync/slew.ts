// Frame-to-frame speed limit shared by both lip-sync paths.

/**
 * Lowering-only slew limit, in place: the result never exceeds the input (so closures imposed
 * as ceilings survive) and |y[i] - y[i-1]| <= step. The backward pass bounds drops, the forward
 * pass bounds rises without creating new drops.
 */
export function slewLimitDown(y: Float64Array, step: number): void {
  for (let i = y.length - 2; i >= 0; i--) y[i] = Math.min(y[i], y[i + 1] + step);
  for (let i = 1; i < y.length; i++) y[i] = Math.min(y[i], y[i - 1] + step);
}
