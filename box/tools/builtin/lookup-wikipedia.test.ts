import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLookupWikipedia } from "./lookup-wikipedia.ts";
import { FakeWikipedia } from "./testing/fake-wikipedia.ts";
import { ToolArgsError } from "./types.ts";

const ctx = () => ({ timeZone: "UTC", signal: new AbortController().signal });
let wiki: FakeWikipedia;
const tool = (timeoutMs?: number) => createLookupWikipedia({ baseUrl: wiki.url, timeoutMs });

beforeAll(async () => {
  wiki = await FakeWikipedia.start({
    articles: [
      {
        title: "Eiffel Tower",
        description: "Tower in Paris, France",
        extract: "The Eiffel Tower is a wrought-iron lattice tower in Paris.",
      },
      { title: "AC/DC", description: "Australian rock band", extract: "AC/DC are an Australian rock band formed in Sydney in 1973." },
      { title: "Mercury", type: "disambiguation", extract: "Mercury may refer to:" },
      { title: "Sydney Opera House", extract: "The Sydney Opera House is a multi-venue performing arts centre." },
    ],
    redirects: { "Tour Eiffel": "Eiffel Tower" },
  });
});
afterAll(() => wiki.close());

describe("lookup_wikipedia", () => {
  it("returns the summary extract with its source", async () => {
    const text = await tool().run({ topic: "Eiffel Tower" }, ctx());
    expect(text).toBe(
      "Eiffel Tower (Tower in Paris, France)\nThe Eiffel Tower is a wrought-iron lattice tower in Paris.\nSource: https://en.wikipedia.org/wiki/Eiffel_Tower",
    );
    expect(wiki.server.requests.at(-1)!.url).toBe("/api/rest_v1/page/summary/Eiffel_Tower?redirect=true");
    expect(wiki.server.requests.at(-1)!.headers["user-agent"]).toMatch(/avatar-box/);
  });

  it("encodes titles with slashes and follows redirects", async () => {
    expect(await tool().run({ topic: "AC/DC" }, ctx())).toContain("Australian rock band formed in Sydney");
    expect(await tool().run({ topic: "Tour Eiffel" }, ctx())).toContain("wrought-iron lattice tower");
    expect(await tool().run({ topic: "eiffel tower" }, ctx())).toContain("wrought-iron lattice tower");
  });

  it("falls back to search when the topic is not a title", async () => {
    const text = await tool().run({ topic: "Sydney Opera" }, ctx());
    expect(text).toContain("multi-venue performing arts centre");
    const paths = wiki.server.requests.slice(-3).map((r) => new URL(r.url, "http://x"));
    expect(paths[0].pathname).toBe("/api/rest_v1/page/summary/Sydney_Opera");
    expect(paths[1].pathname).toBe("/w/api.php");
    expect(paths[1].searchParams.get("action")).toBe("opensearch");
    expect(paths[1].searchParams.get("limit")).toBe("1");
    expect(paths[2].pathname).toBe("/api/rest_v1/page/summary/Sydney_Opera_House");
  });

  it("says there is no article when neither summary nor search finds one", async () => {
    expect(await tool().run({ topic: "Qwxzv unknown thing" }, ctx())).toBe('No Wikipedia article was found for "Qwxzv unknown thing".');
  });

  it("marks disambiguation pages", async () => {
    expect(await tool().run({ topic: "Mercury" }, ctx())).toContain("Mercury is a disambiguation page");
  });

  it("turns server errors and timeouts into readable tool errors", async () => {
    wiki.faults.push(503);
    await expect(tool().run({ topic: "Eiffel Tower" }, ctx())).rejects.toThrow(/Wikipedia answered with HTTP status 503/);
    const dead = createLookupWikipedia({ baseUrl: "http://127.0.0.1:1" });
    await expect(dead.run({ topic: "Eiffel Tower" }, ctx())).rejects.toThrow(/Wikipedia could not be reached/);
  });

  it.each([[{}], [{ topic: ["x"] }], [{ topic: "" }], [{ topic: "x".repeat(201) }], [undefined]])(
    "refuses bad arguments %j",
    async (args) => {
      await expect(tool().run(args, ctx())).rejects.toBeInstanceOf(ToolArgsError);
    },
  );
});
