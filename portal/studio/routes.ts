// Implements: the live studio served by the portal (issue 13 item 2): `GET /` leads to it; pages
// under `/studio`, the API reference at `/docs`, the stylesheet and the one bundled script. The pages carry no secret: the
// script mints short-lived box credentials (`POST /auth/session/credential`) itself.
import { Hono, type Context } from "hono";
import { getCookie } from "hono/cookie";
import { ApiError } from "../../shared/errors/api-error.ts";
import type { GpuService } from "../gpu/service.ts";
import type { PortalHonoEnv } from "../http/types.ts";
import type { IdentityService } from "../identity/service.ts";
import { SESSION_COOKIE } from "../identity/session-cookie.ts";
import type { KeyService } from "../keys/service.ts";
import { safeNext } from "../sign-in/service.ts";
import { KeyList, KeysPage } from "./keys-page.tsx";
import { NotFoundPage, renderDocument } from "./layout.tsx";
import { GpuPage } from "./gpu-page.tsx";
import { LibraryPage } from "./library-page.tsx";
import { LivePage } from "./live-page.tsx";
import { PortraitsPage } from "./portraits-page.tsx";
import { VoicesPage } from "./voices-page.tsx";
import { SignInPage } from "./sign-in-page.tsx";
import { DocsPage } from "./docs-page.tsx";
import type { BoxDocument } from "../openapi/box-document.ts";
import { portalOpenApiDocument } from "../openapi/document.ts";
import { EARLY_JS } from "./early-script.ts";
import { STUDIO_CSS } from "./styles.ts";

/** The bundled browser script, as the runtime entry built it. */
export interface StudioScript {
  code: string;
  /** The same bytes gzip-compressed, served to browsers that accept it. */
  gzip?: Uint8Array;
  etag: string;
}

export interface StudioOptions {
  /** Builds (once) and answers the browser script; the Bun entry passes Bun.build's. Absent: 503. */
  script?: (() => Promise<StudioScript>) | null;
  /** The outbox folder when sign-in mails are written there instead of sent; null with a mail server. */
  outbox?: string | null;
}

export interface StudioDeps extends StudioOptions {
  identity: IdentityService;
  keys: KeyService;
  gpu: GpuService;
  log: (msg: string, err?: unknown) => void;
  /** The running box's OpenAPI document, for the API reference page; absent: the page says none was read. */
  boxDocument?: () => Promise<BoxDocument>;
}

const SIGN_IN = "/studio/sign-in";

// Same-origin everything; media arrives over WebRTC (not governed by CSP), previews as blob: URLs,
// and the microphone's audio worklet is a blob: module the client library makes (script-src blob:).
const PAGE_HEADERS: Record<string, string> = {
  "Content-Security-Policy":
    "default-src 'none'; script-src 'self' blob:; style-src 'self'; img-src 'self' blob: data:; media-src 'self' blob:; connect-src 'self'; " +
    "base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
  "Cache-Control": "no-store",
  "Referrer-Policy": "same-origin",
  "X-Content-Type-Options": "nosniff",
  "Permissions-Policy": "microphone=(self), camera=(self), geolocation=()",
};

/** FNV-1a, enough to tell one stylesheet (or script) from the next. */
function weakEtag(text: string): string {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193);
  return `W/"${(h >>> 0).toString(16)}-${text.length.toString(16)}"`;
}

export function studioRoutes(deps: StudioDeps): Hono<PortalHonoEnv> {
  const app = new Hono<PortalHonoEnv>();
  const cssEtag = weakEtag(STUDIO_CSS);
  const earlyEtag = weakEtag(EARLY_JS);

  /** The signed-in address, or null (no cookie, or one that is no longer a session). */
  async function who(c: Context): Promise<string | null> {
    const cookie = getCookie(c, SESSION_COOKIE);
    if (!cookie) return null;
    try {
      return (await deps.identity.resolve(undefined, cookie)).email;
    } catch (err) {
      if (err instanceof ApiError && err.status === 401) return null;
      throw err;
    }
  }

  async function page(c: Context, node: unknown, status: 200 | 404 = 200): Promise<Response> {
    return c.html(await renderDocument(node), status, PAGE_HEADERS);
  }

  const toSignIn = (c: Context) => c.redirect(`${SIGN_IN}?next=${encodeURIComponent(c.req.path)}`, 303);

  app.get("/", (c) => c.redirect("/studio", 302));

  app.get("/studio", async (c) => {
    const email = await who(c);
    if (!email) return toSignIn(c);
    return page(c, LivePage({ email, admin: deps.gpu.isAdmin(email) }));
  });
  app.get("/studio/", (c) => c.redirect("/studio", 301));

  app.get(SIGN_IN, async (c) => {
    const next = safeNext(c.req.query("next") ?? "/studio");
    return page(
      c,
      SignInPage({
        next: next === "/" ? "/studio" : next,
        outbox: deps.outbox ?? null,
        signedInAs: await who(c),
        linkProblem: c.req.query("link") === "invalid",
      }),
    );
  });

  app.get("/studio/keys", async (c) => {
    const email = await who(c);
    if (!email) return toSignIn(c);
    return page(c, KeysPage({ email, admin: deps.gpu.isAdmin(email), keys: await deps.keys.list(email) }));
  });

  // Pages the script fills from the portal's JSON routes: the server knows only who is signed in.
  const filled: Record<string, (p: { email: string; admin: boolean }) => unknown> = {
    library: LibraryPage,
    portraits: PortraitsPage,
    voices: VoicesPage,
    gpu: GpuPage,
  };
  for (const [name, Page] of Object.entries(filled)) {
    app.get(`/studio/${name}`, async (c) => {
      const email = await who(c);
      if (!email) return toSignIn(c);
      return page(c, Page({ email, admin: deps.gpu.isAdmin(email) }));
    });
  }

  // The API reference: public (it carries no secret), with the navigation for a signed-in person.
  const portalDocument = portalOpenApiDocument();
  app.get("/docs", async (c) => {
    const email = await who(c);
    const box: BoxDocument = deps.boxDocument ? await deps.boxDocument() : { ok: false, why: "This portal reads no box document." };
    return page(c, DocsPage({ email, admin: email ? deps.gpu.isAdmin(email) : false, portal: portalDocument, box }));
  });

  // The list alone, for the script to swap in after a create or a revoke (hints only, no secret).
  app.get("/studio/keys/list", async (c) => {
    const email = await who(c);
    if (!email) throw new ApiError(401, "missing_api_key", "Sign in first.", "unwrapped");
    return c.html(String(await KeyList({ keys: await deps.keys.list(email) })), 200, {
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    });
  });

  app.get("/studio/studio.css", (c) => {
    const headers = {
      "Content-Type": "text/css; charset=utf-8",
      ETag: cssEtag,
      "Cache-Control": "no-cache",
      "X-Content-Type-Options": "nosniff",
    };
    if (c.req.header("if-none-match") === cssEtag) return c.body(null, 304, headers);
    return c.body(STUDIO_CSS, 200, headers);
  });

  app.get("/studio/early.js", (c) => {
    const headers = {
      "Content-Type": "text/javascript; charset=utf-8",
      ETag: earlyEtag,
      "Cache-Control": "no-cache",
      "X-Content-Type-Options": "nosniff",
    };
    if (c.req.header("if-none-match") === earlyEtag) return c.body(null, 304, headers);
    return c.body(EARLY_JS, 200, headers);
  });

  app.get("/studio/app.js", async (c) => {
    const js = { "Content-Type": "text/javascript; charset=utf-8", "X-Content-Type-Options": "nosniff" };
    if (!deps.script) {
      return c.body(
        'console.error("The studio script is not built on this runtime: run the portal with Bun (bun portal/main.ts).");',
        503,
        js,
      );
    }
    let script: StudioScript;
    try {
      script = await deps.script();
    } catch (err) {
      deps.log("portal: the studio script did not build", err);
      return c.body('console.error("The studio script failed to build: see the portal log.");', 503, js);
    }
    const headers: Record<string, string> = { ...js, ETag: script.etag, "Cache-Control": "no-cache", Vary: "Accept-Encoding" };
    if (c.req.header("if-none-match") === script.etag) return c.body(null, 304, headers);
    if (script.gzip && /\bgzip\b/.test(c.req.header("accept-encoding") ?? "")) {
      return c.body(script.gzip as Uint8Array<ArrayBuffer>, 200, { ...headers, "Content-Encoding": "gzip" });
    }
    return c.body(script.code, 200, headers);
  });

  app.get("/studio/*", async (c) => page(c, NotFoundPage({ email: await who(c) }), 404));
  return app;
}
