// The network half of `fetch_url`: GET with the connection pinned to the vetted addresses (DNS
// rebinding cannot swap them), redirects followed by hand and re-vetted, a byte cap and a deadline.
import { request as httpRequest, type IncomingMessage, type RequestOptions } from "node:http";
import { request as httpsRequest } from "node:https";
import type { LookupAddress, LookupOptions } from "node:dns";
import { createBrotliDecompress, createGunzip, createInflate } from "node:zlib";
import type { Readable } from "node:stream";
import { vetUrl, type GuardOptions, type ResolvedAddress, type VettedTarget } from "./ssrf-guard.ts";
import { ToolError } from "./types.ts";

export interface PageFetchOptions extends GuardOptions {
  /** Whole fetch, every hop included. Default 8000. */
  timeoutMs?: number;
  /** Bytes of (decoded) body read before stopping. Default 512 KiB. */
  maxBytes?: number;
  /** Default 5. */
  maxRedirects?: number;
  userAgent?: string;
}

export const FETCH_DEFAULTS = {
  timeoutMs: 8000,
  maxBytes: 512 * 1024,
  maxRedirects: 5,
  userAgent: "Mozilla/5.0 (compatible; avatar-box-fetch/1.0)",
} as const;

/** Headers of the final response; `read` pulls the body up to the byte cap. */
export interface PageResponse {
  url: string;
  status: number;
  headers: IncomingMessage["headers"];
  read(): Promise<{ body: Buffer; truncated: boolean }>;
  discard(): void;
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/** A `lookup` that only ever answers with the vetted addresses. */
function pinnedLookup(addresses: ResolvedAddress[]) {
  return (_host: string, opts: LookupOptions | LookupCallback, cb?: LookupCallback): void => {
    const callback = (typeof opts === "function" ? opts : cb)!;
    const options = typeof opts === "function" ? {} : opts;
    const wanted = options.family === 4 || options.family === 6 ? addresses.filter((a) => a.family === options.family) : addresses;
    const list = wanted.length > 0 ? wanted : addresses;
    if (options.all)
      callback(
        null,
        list.map((a) => ({ address: a.address, family: a.family })),
      );
    else callback(null, list[0].address, list[0].family);
  };
}

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

function send(target: VettedTarget, userAgent: string, signal: AbortSignal): Promise<IncomingMessage> {
  const { url } = target;
  const options: RequestOptions = {
    protocol: url.protocol,
    hostname: target.hostname, // Host header and TLS SNI keep the name; the socket goes to the pinned address
    port: url.port || undefined,
    path: `${url.pathname}${url.search}`,
    method: "GET",
    headers: {
      "user-agent": userAgent,
      accept: "text/html,application/xhtml+xml,text/plain;q=0.9,application/json;q=0.8,*/*;q=0.5",
      "accept-encoding": "gzip, deflate, br",
    },
    lookup: pinnedLookup(target.addresses) as RequestOptions["lookup"],
    agent: false,
    signal,
  };
  return new Promise((resolve, reject) => {
    const req = (url.protocol === "https:" ? httpsRequest : httpRequest)(options, resolve);
    req.on("error", reject);
    req.end();
  });
}

function decoded(res: IncomingMessage): Readable {
  const encoding = String(res.headers["content-encoding"] ?? "identity")
    .trim()
    .toLowerCase();
  if (encoding === "identity" || encoding === "") return res;
  const decoder =
    encoding === "gzip" || encoding === "x-gzip"
      ? createGunzip()
      : encoding === "deflate"
        ? createInflate()
        : encoding === "br"
          ? createBrotliDecompress()
          : undefined;
  if (!decoder) throw new ToolError("The page used a compression this tool cannot read.", `content-encoding ${encoding}`);
  res.on("error", (err) => decoder.destroy(err));
  return res.pipe(decoder);
}

/** Reads at most maxBytes of the decoded body, then stops the transfer (a zip bomb stops at the cap too). */
async function readCapped(res: IncomingMessage, maxBytes: number): Promise<{ body: Buffer; truncated: boolean }> {
  const chunks: Buffer[] = [];
  let size = 0;
  let truncated = false;
  let stream: Readable = res;
  try {
    stream = decoded(res);
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      const room = maxBytes - size;
      if (chunk.length >= room) {
        chunks.push(chunk.subarray(0, room));
        size += room;
        truncated = chunk.length > room || !res.complete;
        break;
      }
      chunks.push(chunk);
      size += chunk.length;
    }
  } finally {
    if (stream !== res) stream.destroy();
    res.destroy();
  }
  return { body: Buffer.concat(chunks, size), truncated };
}

/** Vets, connects, follows redirects (each hop vetted again). Throws ToolError for every failure. */
export async function openPage(raw: string, options: PageFetchOptions, signal: AbortSignal): Promise<PageResponse> {
  const maxRedirects = options.maxRedirects ?? FETCH_DEFAULTS.maxRedirects;
  const maxBytes = options.maxBytes ?? FETCH_DEFAULTS.maxBytes;
  let current = raw;
  for (let hop = 0; hop <= maxRedirects; hop++) {
    const target = await abortable(vetUrl(current, options), signal);
    const res = await send(target, options.userAgent ?? FETCH_DEFAULTS.userAgent, signal);
    const status = res.statusCode ?? 0;
    const location = res.headers.location;
    if (REDIRECTS.has(status) && location) {
      res.destroy();
      try {
        current = new URL(location, target.url).toString();
      } catch {
        throw new ToolError("The page redirected to an address that is not valid.", `location ${location.slice(0, 200)}`);
      }
      continue;
    }
    return {
      url: target.url.toString(),
      status,
      headers: res.headers,
      read: () => readCapped(res, maxBytes),
      discard: () => res.destroy(),
    };
  }
  throw new ToolError(`The page redirected more than ${maxRedirects} times, so it was not read.`);
}

/** Rejects as soon as the signal aborts (a DNS lookup cannot be cancelled, only abandoned). */
function abortable<T>(work: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener("abort", onAbort, { once: true });
    work.then(resolve, reject).finally(() => signal.removeEventListener("abort", onAbort));
  });
}
