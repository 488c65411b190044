// The live page's first box credential: the answer `/studio/early.js` asked for while this bundle
// was still loading (portal/studio/early-script.ts), taken once; every later credential (renewals,
// or when that early answer was not a credential) is minted by `mint` as before.
import type { TokenGrant, TokenProvider } from "../../../../shared/client/index.ts";
import { EARLY_GLOBAL, type EarlyAnswer } from "../../early-script.ts";

type EarlyWindow = Record<typeof EARLY_GLOBAL, Promise<EarlyAnswer> | undefined>;

export function earlyThenMint(mint: TokenProvider, from: Partial<EarlyWindow> = window as unknown as EarlyWindow): TokenProvider {
  let early = from[EARLY_GLOBAL];
  from[EARLY_GLOBAL] = undefined;
  return async (current) => {
    const asked = early;
    early = undefined;
    if (asked && !current) {
      try {
        const answer = await asked;
        if (answer.status === 201 && answer.body) return answer.body as TokenGrant;
      } catch {
        // A network failure or a body that is not JSON: mint one the usual way, which says why if it fails too.
      }
    }
    return mint(current);
  };
}
