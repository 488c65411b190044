// Implements: Authentication: Plane A, point 3 (route policies resolved by method and path).
export type Policy = "public" | "any" | "full";

const FULL = new Set([
  "POST /api/avatar",
  "POST /api/avatar/delete",
  "POST /api/upload",
  "POST /api/voice/upload",
  "POST /api/voice/prepare",
  "POST /api/settings",
  "GET /api/stats",
  "POST /v1/streaming.create_token",
  "POST /v1/photo_avatar.create",
]);

export function policyFor(method: string, path: string): Policy {
  if (method === "OPTIONS") return "public";
  // A trailing slash names the same route; the router treats them alike, so must the policy.
  const p = path.length > 1 && path.endsWith("/") ? path.slice(0, -1) : path;
  if (method === "GET" || method === "HEAD") {
    if (p === "/" || p === "/health" || p === "/openapi.json" || p.startsWith("/static/")) return "public";
  }
  return FULL.has(`${method} ${p}`) ? "full" : "any";
}
