// Implements: the live page's early start (issue 23, studio page load → first frame). A few hundred
// bytes of classic script, loaded `async` from the page's head, that asks for the box credential
// (`POST /auth/session/credential`, the person's cookie) while the bundle is still being fetched and
// run. The page itself never carries the credential (the pages hold no secret, and a credential in
// the HTML would outlive the page in caches and history); the bundle takes this one answer for its
// first credential (browser/live/early-credential.ts) and mints later ones itself.
// Same origin only (the page's CSP is script-src 'self'); nothing here runs on other pages.

/** The global the bundle reads; set once per page load. */
export const EARLY_GLOBAL = "studioEarlyCredential";

/**
 * What the global holds: the answer's status and, for a 201, its body already parsed. The body is
 * read here, while the bundle still loads: read by the bundle, its JSON waited on the bundle's own
 * first long task, 20-50 ms on the path to the page's first box request.
 */
export type EarlyAnswer = { status: number; body?: unknown };

export const EARLY_JS = `"use strict";
window.${EARLY_GLOBAL} = fetch("/auth/session/credential", { method: "POST", credentials: "include", headers: { accept: "application/json" } })
  .then(function (res) {
    return res.status === 201 ? res.json().then(function (body) { return { status: 201, body: body }; }) : { status: res.status };
  });
window.${EARLY_GLOBAL}.catch(function () {});
`;
