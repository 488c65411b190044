// Implements: warm connections to the providers (docs/api-notes.md "Warm connections"): a live session's
// first turn should not pay TCP and TLS set-up to its model and voice. One HEAD request without
// credentials opens a connection that fetch keeps alive for the requests that follow; what it
// answers (often 401 or 404) does not matter, and a failure is silent (the turn reports its own).
type Fetch = (input: string, init?: RequestInit) => Promise<Response>;

const WARM_TIMEOUT_MS = 5_000;

export async function warmConnection(fetchFn: Fetch, url: string): Promise<void> {
  try {
    const res = await fetchFn(url, { method: "HEAD", signal: AbortSignal.timeout(WARM_TIMEOUT_MS) });
    await res.body?.cancel().catch(() => undefined);
  } catch {
    // Unreachable now: the turn finds out and says so.
  }
}
