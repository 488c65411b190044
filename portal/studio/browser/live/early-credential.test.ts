// The live page's first credential comes from the answer /studio/early.js asked for (one mint per
// page load, not two); renewals, and an early answer that is not a credential, mint as before.
import { describe, expect, it } from "vitest";
import { EARLY_GLOBAL, EARLY_JS, type EarlyAnswer } from "../../early-script.ts";
import { earlyThenMint } from "./early-credential.ts";

const grant = (secret: string) => ({ credential: { secret, expires_in: 900, expires_at: 0, scope: "full" } });
/** What /studio/early.js leaves on the page: the status, and a 201's body parsed. */
const answer = (status: number, body: unknown) => Promise.resolve(status === 201 ? { status, body } : { status });

function minter() {
  const calls: (string | null)[] = [];
  return { calls, mint: async (current: string | null) => (calls.push(current), grant(`minted-${calls.length}`)) };
}

describe("earlyThenMint", () => {
  it("answers the first ask with the early credential, and mints every later one", async () => {
    const m = minter();
    const from = { [EARLY_GLOBAL]: answer(201, grant("early")) };
    const token = earlyThenMint(m.mint, from);
    expect(from[EARLY_GLOBAL]).toBeUndefined(); // taken: nothing else on the page can reuse it
    expect(await token(null)).toEqual(grant("early"));
    expect(m.calls).toEqual([]);
    expect(await token("early")).toEqual(grant("minted-1"));
    expect(m.calls).toEqual(["early"]);
  });

  it("mints when the early answer was a refusal (signed out) or failed, so the refusal is the mint's own", async () => {
    for (const early of [answer(401, { error: { code: "missing_api_key" } }), Promise.reject(new TypeError("network"))]) {
      early.catch(() => {});
      const m = minter();
      expect(await earlyThenMint(m.mint, { [EARLY_GLOBAL]: early })(null)).toEqual(grant("minted-1"));
      expect(m.calls).toEqual([null]);
    }
  });

  it("without an early answer (another page, or the script blocked) it mints", async () => {
    const m = minter();
    expect(await earlyThenMint(m.mint, {})(null)).toEqual(grant("minted-1"));
  });

  it("/studio/early.js itself leaves the answer parsed: the bundle's first ask takes it without reading a body", async () => {
    const run = (res: Response) => {
      const page: Record<string, unknown> = {};
      new Function("window", "fetch", EARLY_JS)(page, async () => res);
      return page as { [EARLY_GLOBAL]: Promise<EarlyAnswer> };
    };
    const ok = run(new Response(JSON.stringify(grant("early")), { status: 201, headers: { "content-type": "application/json" } }));
    expect(await ok[EARLY_GLOBAL]).toEqual({ status: 201, body: grant("early") });
    const m = minter();
    expect(await earlyThenMint(m.mint, ok)(null)).toEqual(grant("early"));
    expect(m.calls).toEqual([]);
    const refused = run(new Response(JSON.stringify({ error: { code: "missing_api_key" } }), { status: 401 }));
    expect(await refused[EARLY_GLOBAL]).toEqual({ status: 401 });
    expect(await earlyThenMint(m.mint, refused)(null)).toEqual(grant("minted-1"));
  });
});
