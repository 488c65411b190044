// The live page's first credential comes from the answer /studio/early.js asked for (one mint per
// page load, not two); renewals, and an early answer that is not a credential, mint as before.
import { describe, expect, it } from "vitest";
import { EARLY_GLOBAL } from "../../early-script.ts";
import { earlyThenMint } from "./early-credential.ts";

const grant = (secret: string) => ({ credential: { secret, expires_in: 900, expires_at: 0, scope: "full" } });
const answer = (status: number, body: unknown) =>
  Promise.resolve(new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } }));

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
});
