// The HTTP core every box route wrapper goes through: base address, the credential as a header
// (the preferred form; sockets use `?session_token=`), JSON in and out, one error mapping.
import { AvatarApiError } from "./errors.ts";
import type { Credentials } from "./credentials.ts";

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;
export type Query = Record<string, string | number | boolean | undefined | null>;

export interface RequestOptions {
  query?: Query;
  /** A JSON body (sent as application/json). */
  json?: unknown;
  /** A body sent as it is (FormData for multipart). */
  body?: BodyInit;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

export class HttpCore {
  readonly baseUrl: string;
  private readonly doFetch: FetchLike;

  constructor(
    baseUrl: string,
    readonly credentials: Credentials,
    fetchImpl?: FetchLike,
  ) {
    this.baseUrl = baseUrl.replace(/\/+$/, "");
    this.doFetch = fetchImpl ?? ((input, init) => fetch(input, init));
  }

  url(path: string, query?: Query): string {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(query ?? {})) if (v !== undefined && v !== null) q.set(k, String(v));
    const s = q.toString();
    return `${this.baseUrl}${path}${s ? `?${s}` : ""}`;
  }

  /** `ws(s)://` address of a socket path; a page on the box's own origin may leave baseUrl empty. */
  socketUrl(path: string, query: Query): string {
    let base = this.baseUrl;
    if (!/^https?:\/\//i.test(base)) {
      const origin = (globalThis as { location?: { origin?: string } }).location?.origin;
      if (!origin)
        throw new AvatarApiError(0, "invalid_base_url", "Sockets need an absolute baseUrl (http:// or https://) outside a browser page.", {
          source: "local",
        });
      base = origin + base;
    }
    return base.replace(/^http/i, "ws") + this.url(path, query).slice(this.baseUrl.length);
  }

  /**
   * Sends a request and answers the Response when it is a success; a refusal throws
   * AvatarApiError. A provider's credential that the box refused (401 invalid_api_key) is
   * renewed once and the request sent again.
   */
  async send(method: string, path: string, opts: RequestOptions = {}): Promise<Response> {
    let res = await this.attempt(method, path, opts, await this.credentials.current());
    if (res.status === 401 && this.credentials.renewable) {
      const refused = await AvatarApiError.fromResponse(res);
      if (refused.code !== "invalid_api_key") throw refused;
      res = await this.attempt(method, path, opts, await this.credentials.refresh());
    }
    if (!res.ok) throw await AvatarApiError.fromResponse(res);
    return res;
  }

  async json<T>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
    const res = await this.send(method, path, { ...opts, headers: { accept: "application/json", ...opts.headers } });
    return (await res.json()) as T;
  }

  async blob(path: string, query?: Query): Promise<Blob> {
    return (await this.send("GET", path, { query })).blob();
  }

  private attempt(method: string, path: string, opts: RequestOptions, token: string | null): Promise<Response> {
    const headers: Record<string, string> = { ...opts.headers };
    if (token) headers.authorization = `Bearer ${token}`;
    let body = opts.body;
    if (opts.json !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(opts.json);
    }
    return this.doFetch(this.url(path, opts.query), { method, headers, body, signal: opts.signal }).catch((err: unknown) => {
      if ((err as { name?: string })?.name === "AbortError") throw err;
      throw new AvatarApiError(0, "network_error", `The box could not be reached: ${(err as Error)?.message ?? String(err)}`, {
        source: "local",
        cause: err,
      });
    });
  }
}
