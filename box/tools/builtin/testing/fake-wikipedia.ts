// Wikipedia's REST page summary (`/api/rest_v1/page/summary/{title}`, 302 for redirect pages, a
// problem+json 404) and the action API's opensearch (`/w/api.php?action=opensearch`).
import type { ServerResponse } from "node:http";
import { LocalServer, sendJson } from "./local-server.ts";

export interface FakeArticle {
  title: string;
  extract: string;
  description?: string;
  type?: "standard" | "disambiguation" | "no-extract";
}

export interface FakeWikipediaOptions {
  articles: FakeArticle[];
  /** Redirect page title → target title. */
  redirects?: Record<string, string>;
}

/** MediaWiki title normalisation: underscores are spaces, first letter upper case. */
function normalise(title: string): string {
  const spaced = title.replace(/_/g, " ").trim();
  return spaced.charAt(0).toUpperCase() + spaced.slice(1);
}

export class FakeWikipedia {
  /** Queued HTTP failures served before normal answers. */
  readonly faults: number[] = [];
  readonly server: LocalServer;

  private constructor(private readonly options: FakeWikipediaOptions) {
    this.server = new LocalServer((req, res, url) => {
      const fault = this.faults.shift();
      if (fault)
        return sendJson(res, fault, { type: "https://mediawiki.org/wiki/HyperSwitch/errors/unknown_error", title: "Error", status: fault });
      const prefix = "/api/rest_v1/page/summary/";
      if (req.method === "GET" && url.pathname.startsWith(prefix)) {
        return this.summary(res, decodeURIComponent(url.pathname.slice(prefix.length)), url.searchParams.get("redirect") !== "false");
      }
      if (req.method === "GET" && url.pathname === "/w/api.php" && url.searchParams.get("action") === "opensearch") {
        return this.opensearch(res, url);
      }
      sendJson(res, 404, {
        type: "https://mediawiki.org/wiki/HyperSwitch/errors/not_found",
        title: "Not found.",
        method: "get",
        uri: url.pathname,
      });
    });
  }

  static async start(options: FakeWikipediaOptions): Promise<FakeWikipedia> {
    const fake = new FakeWikipedia(options);
    await fake.server.listen();
    return fake;
  }

  get url(): string {
    return this.server.url;
  }

  close(): Promise<void> {
    return this.server.close();
  }

  private summary(res: ServerResponse, rawTitle: string, followRedirects: boolean): void {
    const title = normalise(rawTitle);
    const target = this.options.redirects?.[title];
    if (target && followRedirects) {
      res.writeHead(302, { location: encodeURIComponent(target.replace(/ /g, "_")), "content-type": "application/json" });
      return void res.end();
    }
    if (title !== rawTitle.replace(/_/g, " ") && this.find(title)) {
      // Non-canonical spelling of an existing title: the real API redirects to the canonical one.
      res.writeHead(301, { location: encodeURIComponent(title.replace(/ /g, "_")) });
      return void res.end();
    }
    const article = this.find(title);
    if (!article) {
      return sendJson(
        res,
        404,
        {
          type: "https://mediawiki.org/wiki/HyperSwitch/errors/not_found",
          title: "Not found.",
          method: "get",
          detail: "Page or revision not found.",
          uri: `/en.wikipedia.org/v1/page/summary/${encodeURIComponent(rawTitle)}`,
        },
        "application/problem+json",
      );
    }
    const path = article.title.replace(/ /g, "_");
    sendJson(
      res,
      200,
      {
        type: article.type ?? "standard",
        title: article.title,
        displaytitle: article.title,
        namespace: { id: 0, text: "" },
        pageid: 1000 + this.options.articles.indexOf(article),
        lang: "en",
        dir: "ltr",
        description: article.description,
        content_urls: {
          desktop: { page: `https://en.wikipedia.org/wiki/${path}` },
          mobile: { page: `https://en.m.wikipedia.org/wiki/${path}` },
        },
        extract: article.extract,
        extract_html: `<p>${article.extract}</p>`,
      },
      'application/json; charset=utf-8; profile="https://www.mediawiki.org/wiki/Specs/Summary/1.4.2"',
    );
  }

  private find(title: string): FakeArticle | undefined {
    return this.options.articles.find((a) => a.title === title);
  }

  private opensearch(res: ServerResponse, url: URL): void {
    const search = url.searchParams.get("search") ?? "";
    const limit = Number(url.searchParams.get("limit") ?? 10);
    const wanted = search.toLowerCase();
    const titles = [...this.options.articles.map((a) => a.title), ...Object.keys(this.options.redirects ?? {})]
      .filter((t) => t.toLowerCase().startsWith(wanted))
      .map((t) => this.options.redirects?.[t] ?? t)
      .filter((t, i, all) => all.indexOf(t) === i)
      .slice(0, limit);
    sendJson(res, 200, [search, titles, titles.map(() => ""), titles.map((t) => `https://en.wikipedia.org/wiki/${t.replace(/ /g, "_")}`)]);
  }
}
