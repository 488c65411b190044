// A small public web site for fetch_url tests: each path answers with a scripted real HTTP response
// (pages, redirects, images, gzip, oversize and never-ending bodies).
import type { IncomingMessage, ServerResponse } from "node:http";
import { gzipSync } from "node:zlib";
import { LocalServer } from "./local-server.ts";

type Route = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

export class FakeWeb {
  private readonly routes = new Map<string, Route>();
  readonly server = new LocalServer((req, res, url) => {
    const route = this.routes.get(url.pathname);
    if (route) return route(req, res);
    res.writeHead(404, { "content-type": "text/html" });
    res.end("<h1>Not found</h1>");
  });

  static async start(): Promise<FakeWeb> {
    const web = new FakeWeb();
    await web.server.listen();
    return web;
  }

  get port(): number {
    return this.server.port;
  }

  get requests() {
    return this.server.requests;
  }

  close(): Promise<void> {
    return this.server.close();
  }

  route(path: string, handler: Route): this {
    this.routes.set(path, handler);
    return this;
  }

  page(path: string, body: string | Buffer, contentType = "text/html; charset=utf-8"): this {
    return this.route(path, (_req, res) => {
      res.writeHead(200, { "content-type": contentType, "content-length": Buffer.byteLength(body) });
      res.end(body);
    });
  }

  gzipPage(path: string, body: string, contentType = "text/html; charset=utf-8"): this {
    const zipped = gzipSync(body);
    return this.route(path, (_req, res) => {
      res.writeHead(200, { "content-type": contentType, "content-encoding": "gzip", "content-length": zipped.length });
      res.end(zipped);
    });
  }

  redirect(path: string, location: string, status = 302): this {
    return this.route(path, (_req, res) => {
      res.writeHead(status, { location });
      res.end();
    });
  }

  /** Streams `totalBytes` of text in 16 KiB chunks; records how much the client let it write. */
  big(path: string, totalBytes: number, written: { bytes: number }): this {
    return this.route(path, async (_req, res) => {
      res.writeHead(200, { "content-type": "text/plain; charset=utf-8" });
      const chunk = Buffer.alloc(16 * 1024, "a");
      while (written.bytes < totalBytes && !res.destroyed) {
        const ok = res.write(chunk);
        written.bytes += chunk.length;
        if (!ok) {
          await new Promise<void>((resolve) => {
            const done = () => {
              res.off("drain", done);
              res.off("close", done);
              resolve();
            };
            res.on("drain", done);
            res.on("close", done);
          });
        }
      }
      res.end();
    });
  }

  /** Sends headers then never finishes the body (a deadline must cut it). */
  hang(path: string): this {
    return this.route(path, (_req, res) => {
      res.writeHead(200, { "content-type": "text/html" });
      res.write("<p>start");
    });
  }
}
