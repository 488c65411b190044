// The portal's own routes (`/auth/*`) from the studio: same origin, the session cookie rides
// along, JSON in and out, refusals read into the client library's one error class.
import { AvatarApiError } from "../../../shared/client/index.ts";

export async function portalJson<T>(method: string, path: string, body?: unknown): Promise<T> {
  let res: Response;
  try {
    res = await fetch(path, {
      method,
      credentials: "same-origin",
      headers: { accept: "application/json", ...(body === undefined ? {} : { "content-type": "application/json" }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (err) {
    throw new AvatarApiError(0, "network_error", `The portal could not be reached: ${(err as Error)?.message ?? String(err)}`, {
      source: "local",
      cause: err,
    });
  }
  if (!res.ok) throw await AvatarApiError.fromResponse(res);
  return (await res.json()) as T;
}

/** Ends the portal session and goes to the sign-in page. */
export async function signOut(): Promise<void> {
  await portalJson("POST", "/auth/logout").catch(() => undefined);
  location.assign("/studio/sign-in?signed_out=1");
}

export function toSignIn(): void {
  location.assign(`/studio/sign-in?next=${encodeURIComponent(location.pathname)}`);
}
