// Implements: Authentication: Plane A, point 1 (three presentation forms, in order of preference).
export interface Presented {
  secret: string;
  form: "x-api-key" | "bearer" | "session_token";
}

export function presentedCredential(headers: Headers, url: string): Presented | null {
  const x = headers.get("x-api-key");
  if (x?.trim()) return { secret: x.trim(), form: "x-api-key" };
  const auth = headers.get("authorization");
  if (auth) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(auth);
    if (m) return { secret: m[1], form: "bearer" };
  }
  const q = url.indexOf("?");
  if (q >= 0 && url.includes("session_token=", q)) {
    const token = new URLSearchParams(url.slice(q + 1)).get("session_token");
    if (token) return { secret: token, form: "session_token" };
  }
  return null;
}
