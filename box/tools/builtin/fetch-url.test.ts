import { createServer as createTlsServer, type Server as TlsServer } from "node:tls";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createFetchUrl, pageKind, type FetchUrlOptions } from "./fetch-url.ts";
import type { Resolver } from "./ssrf-guard.ts";
import { FakeWeb } from "./testing/fake-web.ts";
import { ToolArgsError, ToolError } from "./types.ts";

// Public-looking names mapped to the local fake; reaching 127.0.0.1 needs the explicit test option.
const DNS: Record<string, string> = {
  "news.example.com": "127.0.0.1",
  "other.example.com": "127.0.0.1",
  "secure.example.com": "127.0.0.1",
  "internal.example.com": "192.168.1.10",
};
const resolver = vi.fn<Resolver>(async (name) => {
  const address = DNS[name];
  if (!address) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${name}`), { code: "ENOTFOUND" });
  return [{ address, family: 4 }];
});
const testOptions: FetchUrlOptions = { resolver, testOnlyAllowedAddresses: ["127.0.0.1"] };
const ctx = () => ({ timeZone: "UTC", signal: new AbortController().signal });

let web: FakeWeb;
const written = { bytes: 0 };
const at = (path: string, host = "news.example.com") => `http://${host}:${web.port}${path}`;

beforeAll(async () => {
  web = await FakeWeb.start();
  web
    .page(
      "/article",
      `<html><head><title>Local news &amp; views</title><script>track()</script><style>p{}</style></head>
       <body><nav>Menu Home Sport</nav><h1>Bridge   reopens</h1><p>The bridge reopened&nbsp;today.</p></body></html>`,
    )
    .page("/plain", "just\n\n  some   text", "text/plain")
    .page("/image", Buffer.from([0x89, 0x50, 0x4e, 0x47, 0, 0, 0]), "image/png")
    .page("/latin1", Buffer.from("<p>caf\xe9</p>", "latin1"), "text/html; charset=iso-8859-1")
    .page("/untyped", "<!DOCTYPE html><title>No type</title><p>body</p>", "")
    .page("/long", `<p>${"word ".repeat(5000)}</p>`)
    .gzipPage("/zipped", "<p>compressed words</p>")
    .redirect("/to-article", "/article", 301)
    .redirect("/to-private-ip", "http://10.0.0.5/admin")
    .redirect("/to-metadata", "http://169.254.169.254/latest/meta-data/")
    .redirect("/to-file", "file:///etc/passwd")
    .redirect("/loop", "/loop")
    .big("/huge", 64 * 1024 * 1024, written)
    .hang("/hang")
    .route("/odd-encoding", (_req, res) => {
      res.writeHead(200, { "content-type": "text/html", "content-encoding": "x-custom" });
      res.end("????");
    })
    .route("/missing", (_req, res) => {
      res.writeHead(404, { "content-type": "text/html" });
      res.end("<p>gone</p>");
    });
  // Redirect targets need the port, known only after listen.
  for (const path of ["/to-other-host", "/to-localhost", "/to-internal-name", "/to-ipv6-loopback"]) {
    const target = {
      "/to-other-host": "other.example.com",
      "/to-localhost": "localhost",
      "/to-internal-name": "internal.example.com",
      "/to-ipv6-loopback": "[::1]",
    }[path]!;
    web.redirect(path, `http://${target}:${web.port}/article`);
  }
});

afterAll(() => web.close());

describe("fetch_url: reading pages", () => {
  it("returns readable text from HTML, connecting to the vetted address with the original Host", async () => {
    resolver.mockClear();
    const text = await createFetchUrl(testOptions).run({ url: at("/article") }, ctx());
    expect(text).toContain("Title: Local news & views");
    expect(text).toContain("Bridge reopens\nThe bridge reopened today.");
    expect(text).not.toMatch(/track\(\)|Menu|p\{\}/);
    expect(text).toContain(`Page: ${at("/article")}`);
    expect(web.requests.at(-1)!.headers.host).toBe(`news.example.com:${web.port}`);
    expect(resolver).toHaveBeenCalledTimes(1); // the name is not looked up again at connect time
  });

  it("reads plain text, declared charsets, gzip and untyped HTML", async () => {
    const tool = createFetchUrl(testOptions);
    expect(await tool.run({ url: at("/plain") }, ctx())).toMatch(/just\nsome text$/);
    expect(await tool.run({ url: at("/latin1") }, ctx())).toMatch(/café$/);
    expect(await tool.run({ url: at("/zipped") }, ctx())).toMatch(/compressed words$/);
    expect(await tool.run({ url: at("/untyped") }, ctx())).toContain("Title: No type");
  });

  it("refuses non-text content politely without reading it", async () => {
    await expect(createFetchUrl(testOptions).run({ url: at("/image") }, ctx())).rejects.toThrow(/not a text page \(it is image\/png\)/);
  });

  it("refuses a compression it cannot decode", async () => {
    await expect(createFetchUrl(testOptions).run({ url: at("/odd-encoding") }, ctx())).rejects.toThrow(/compression this tool cannot read/);
  });

  it("reports an HTTP error status", async () => {
    await expect(createFetchUrl(testOptions).run({ url: at("/missing") }, ctx())).rejects.toThrow(/HTTP status 404/);
  });

  it("caps the text handed to the model", async () => {
    const text = await createFetchUrl({ ...testOptions, maxChars: 500 }).run({ url: at("/long") }, ctx());
    expect(text).toContain("shortened to about 500 characters");
    expect(text.split("\n\n")[1].length).toBeLessThanOrEqual(502);
  });

  it("stops reading at the size limit and marks the text truncated", async () => {
    written.bytes = 0;
    const text = await createFetchUrl({ ...testOptions, maxBytes: 64 * 1024, maxChars: 100 }).run({ url: at("/huge") }, ctx());
    expect(text).toContain("only the first 64 KB of the page was read");
    expect(written.bytes).toBeLessThan(64 * 1024 * 1024); // the transfer was cut, not drained
  });

  it("enforces the time limit on a page that never finishes", async () => {
    await expect(createFetchUrl({ ...testOptions, timeoutMs: 300 }).run({ url: at("/hang") }, ctx())).rejects.toThrow(/took longer than/);
  });

  it("stops when the turn is cancelled", async () => {
    const controller = new AbortController();
    const run = createFetchUrl(testOptions).run({ url: at("/hang") }, { timeZone: "UTC", signal: controller.signal });
    setTimeout(() => controller.abort(), 50);
    await expect(run).rejects.toThrow(/cancelled/);
  });
});

describe("fetch_url: redirects", () => {
  it("follows redirects, vetting each hop", async () => {
    resolver.mockClear();
    const text = await createFetchUrl(testOptions).run({ url: at("/to-other-host") }, ctx());
    expect(text).toContain(`Page: ${at("/article", "other.example.com")}`);
    expect(resolver.mock.calls.map((c) => c[0])).toEqual(["news.example.com", "other.example.com"]);
    expect(await createFetchUrl(testOptions).run({ url: at("/to-article") }, ctx())).toContain("Bridge reopens");
  });

  it.each(["/to-private-ip", "/to-metadata", "/to-localhost", "/to-internal-name", "/to-ipv6-loopback", "/to-file"])(
    "refuses a redirect to a non-public target (%s) before connecting",
    async (path) => {
      const before = web.requests.length;
      await expect(createFetchUrl(testOptions).run({ url: at(path) }, ctx())).rejects.toThrow(/Refused/);
      expect(web.requests.length).toBe(before + 1); // only the first hop reached a server
    },
  );

  it("gives up after 5 redirects", async () => {
    const before = web.requests.length;
    await expect(createFetchUrl(testOptions).run({ url: at("/loop") }, ctx())).rejects.toThrow(/more than 5 times/);
    expect(web.requests.length - before).toBe(6);
  });
});

describe("fetch_url: refusals and bad arguments", () => {
  it("refuses loopback with production defaults even when the page exists", async () => {
    const before = web.requests.length;
    const tool = createFetchUrl();
    await expect(tool.run({ url: `http://127.0.0.1:${web.port}/article` }, ctx())).rejects.toThrow(/Refused/);
    await expect(tool.run({ url: `http://localhost:${web.port}/article` }, ctx())).rejects.toThrow(/Refused/);
    expect(web.requests.length).toBe(before);
  });

  it.each([[{}], [{ url: 42 }], [{ url: "" }], [null], ["not json"], [[1, 2]]])(
    "refuses bad arguments %j as ToolArgsError",
    async (args) => {
      await expect(createFetchUrl(testOptions).run(args, ctx())).rejects.toBeInstanceOf(ToolArgsError);
    },
  );

  it("treats a bare host as https and an unknown name as not found", async () => {
    const err = await createFetchUrl(testOptions)
      .run({ url: "nowhere.example.org/page" }, ctx())
      .catch((e) => e);
    expect(err).toBeInstanceOf(ToolError);
    expect(err.message).toMatch(/could not be found/);
  });

  it("sends the host name as TLS SNI while connecting to the pinned address", async () => {
    const names: string[] = [];
    const tls: TlsServer = createTlsServer({
      SNICallback: (name, cb) => {
        names.push(name);
        cb(new Error("no certificate in this fake"));
      },
    });
    await new Promise<void>((r) => tls.listen(0, "127.0.0.1", r));
    const port = (tls.address() as AddressInfo).port;
    try {
      const err = await createFetchUrl(testOptions)
        .run({ url: `https://secure.example.com:${port}/` }, ctx())
        .catch((e) => e);
      expect(err).toBeInstanceOf(ToolError);
      expect(names).toEqual(["secure.example.com"]);
    } finally {
      tls.close();
    }
  });
});

describe("pageKind", () => {
  it("sorts content types", () => {
    expect(pageKind("text/html; charset=utf-8")).toBe("html");
    expect(pageKind("application/rss+xml")).toBe("xml");
    expect(pageKind("application/json")).toBe("text");
    expect(pageKind("")).toBe("");
    expect(pageKind("application/pdf")).toBeUndefined();
    expect(pageKind("video/mp4")).toBeUndefined();
  });
});
