// CORS for allowed origins only; preflights are public (Authentication: Plane A, point 3).
const ALLOW_HEADERS = "Authorization, X-Api-Key, Content-Type, Accept";
const ALLOW_METHODS = "GET, POST, PUT, DELETE, OPTIONS";

export class Cors {
  private readonly origins: Set<string>;
  constructor(origins: string[]) {
    this.origins = new Set(origins);
  }

  /** Headers to add to a response for this request's Origin (empty when not allowed). */
  headersFor(request: Request): Record<string, string> | null {
    if (this.origins.size === 0) return null;
    const origin = request.headers.get("origin");
    if (!origin || !this.origins.has(origin)) return null;
    return { "access-control-allow-origin": origin, vary: "Origin", "access-control-expose-headers": "Content-Type" };
  }

  preflight(request: Request): Response {
    const h = this.headersFor(request);
    if (!h) return new Response(null, { status: 204 });
    return new Response(null, {
      status: 204,
      headers: {
        ...h,
        "access-control-allow-headers": ALLOW_HEADERS,
        "access-control-allow-methods": ALLOW_METHODS,
        "access-control-max-age": "600",
      },
    });
  }

  apply(request: Request, response: Response): Response {
    const h = this.headersFor(request);
    if (h) for (const [k, v] of Object.entries(h)) response.headers.set(k, v);
    return response;
  }
}
