// Checks every studio page test makes on server-rendered HTML: the page's headers, labelled
// fields, and no secret anywhere in a body.
import { expect } from "vitest";

/** A box credential or an API key secret, anywhere in a body. */
export const SECRET_SHAPE = /\b(ak|sc)_[A-Za-z0-9_-]{20,}/;

/** 200 HTML with the studio's security headers. */
export function expectPage(res: Response): void {
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toBe("text/html; charset=UTF-8");
  expect(res.headers.get("cache-control")).toBe("no-store");
  expect(res.headers.get("content-security-policy")).toMatch(/script-src 'self' blob:;.*frame-ancestors 'none'/);
  expect(res.headers.get("x-content-type-options")).toBe("nosniff");
}

/**
 * Every input, select and textarea without a `<label for>` (hidden inputs aside; radios too,
 * unless `radios: true`, for pages whose radios sit inside their labels).
 */
export function unlabelled(html: string, options: { radios?: boolean } = {}): string[] {
  const skip = options.radios ? /type="hidden"/ : /type="(hidden|radio)"/;
  const missing: string[] = [];
  for (const m of html.matchAll(/<(input|select|textarea)\b([^>]*)>/g)) {
    if (skip.test(m[2])) continue;
    const id = /\bid="([^"]+)"/.exec(m[2])?.[1];
    if (!id || !html.includes(`for="${id}"`)) missing.push(m[0]);
  }
  return missing;
}
