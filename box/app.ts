// The box's HTTP core: auth by method and path, CORS for allowed origins, one error mapping.
// Feature folders declare their routes (RouteDef); this file only wires them onto Elysia.
import { Elysia } from "elysia";
import { ApiError } from "../shared/errors/api-error.ts";
import { policyFor } from "./auth/policy.ts";
import { presentedCredential } from "./auth/presentation.ts";
import { OPEN_PRINCIPAL, type Authenticator, type Principal } from "./auth/principal.ts";
import { Cors } from "./http/cors.ts";
import { errorResponse } from "./http/errors.ts";
import { json, type RouteDef } from "./http/route.ts";
import type { SocketConn, SocketRoute } from "./sockets/conn.ts";

export interface BoxAppOptions {
  auth: Authenticator;
  allowedOrigins: string[];
  routes: RouteDef[];
  sockets?: SocketRoute[];
}

function pathOf(url: string): string {
  const start = url.indexOf("/", url.indexOf("//") + 2);
  const q = url.indexOf("?", start);
  return start < 0 ? "/" : url.slice(start, q < 0 ? undefined : q);
}

/** Resolves the caller for a request, or throws the 401 the spec names. */
export async function authorise(auth: Authenticator, request: Request, path: string): Promise<Principal> {
  const policy = policyFor(request.method, path);
  if (policy === "public" || auth.open) return OPEN_PRINCIPAL;
  const presented = presentedCredential(request.headers, request.url);
  if (!presented)
    throw new ApiError(401, "missing_api_key", "This route needs an API key (X-Api-Key or Authorization: Bearer).", "unwrapped");
  const principal = await auth.resolve(presented.secret);
  if (policy === "full" && principal.scope !== "full") {
    throw new ApiError(401, "insufficient_scope", "A stream-only session token cannot call this route; use a full API key.", "unwrapped");
  }
  return principal;
}

export function createBoxApp(options: BoxAppOptions) {
  const cors = new Cors(options.allowedOrigins);
  const principals = new WeakMap<Request, Principal>();
  const app = new Elysia({ normalize: false })
    .onRequest(async ({ request }) => {
      if (request.method === "OPTIONS") return cors.preflight(request);
      try {
        principals.set(request, await authorise(options.auth, request, pathOf(request.url)));
      } catch (err) {
        return cors.apply(request, errorResponse(err, "unwrapped"));
      }
    })
    .onError(({ code, request, error }) => {
      if (code === "NOT_FOUND") return cors.apply(request, json({ error: "No such route.", code: "not_found" }, 404));
      return cors.apply(request, errorResponse(error, "flat"));
    });

  for (const def of options.routes) {
    const handler = async ({ request, params }: { request: Request; params: Record<string, string> }) => {
      try {
        const q = request.url.indexOf("?");
        const result = await def.handler({
          request,
          params: params ?? {},
          query: new URLSearchParams(q < 0 ? "" : request.url.slice(q + 1)),
          principal: principals.get(request) ?? unauthorised(),
        });
        return cors.apply(request, result instanceof Response ? result : json(result));
      } catch (err) {
        return cors.apply(request, errorResponse(err, def.envelope));
      }
    };
    app.route(def.method, def.path, handler, { parse: "none" });
  }
  // A refused credential never reaches here: onRequest answered the upgrade with 401.
  const conns = new Map<string, SocketConn>();
  for (const sock of options.sockets ?? []) {
    app.ws(sock.path, {
      open(ws) {
        const request = ws.data.request;
        const q = request.url.indexOf("?");
        let closed = false;
        const conn: SocketConn = {
          id: ws.id,
          principal: principals.get(request) ?? OPEN_PRINCIPAL,
          secret: presentedCredential(request.headers, request.url)?.secret ?? null,
          query: new URLSearchParams(q < 0 ? "" : request.url.slice(q + 1)),
          send: (frame) => void (closed || ws.send(JSON.stringify(frame))),
          close: (code, reason) => {
            if (closed) return;
            closed = true;
            ws.close(code, reason.slice(0, 120));
          },
          get closed() {
            return closed;
          },
        };
        conns.set(ws.id, conn);
        sock.open(conn);
      },
      message(ws, data) {
        const conn = conns.get(ws.id);
        if (conn && !conn.closed) sock.message(conn, data);
      },
      close(ws, code, reason) {
        const conn = conns.get(ws.id);
        conns.delete(ws.id);
        if (conn) sock.close(conn, code, String(reason ?? ""));
      },
    });
  }
  return app;
}

function unauthorised(): never {
  throw new ApiError(401, "missing_api_key", "This route needs an API key.", "unwrapped");
}
