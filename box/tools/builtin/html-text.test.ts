import { describe, expect, it } from "vitest";
import { decodeEntities, htmlToText } from "./html-text.ts";

describe("htmlToText", () => {
  it("keeps the readable text and title, dropping script, style, nav and comments", () => {
    const html = `<!doctype html><html><head><title>Fish &amp; Chips</title>
      <style>body { color: red }</style><script>var secret = "<p>not text</p>";</script></head>
      <body><nav><a href="/">Home</a> <a href="/about">About</a></nav>
      <!-- hidden comment -->
      <h1>Best   fish</h1><p>Crispy&nbsp;batter, &quot;fresh&quot; fish &#8212; since 1920&#x21;</p>
      <ul><li>Cod</li><li>Haddock</li></ul><noscript>Enable JS</noscript>
      <p>Price: 5 &lt; 6 &euro;</p></body></html>`;
    const { title, text } = htmlToText(html);
    expect(title).toBe("Fish & Chips");
    expect(text).toBe('Best fish\nCrispy batter, "fresh" fish — since 1920!\n- Cod\n- Haddock\nPrice: 5 < 6 €');
    expect(text).not.toMatch(/secret|color|Home|About|hidden|Enable JS/);
  });

  it("handles attributes containing '>' and nested dropped elements", () => {
    const { text } = htmlToText(`<p title="a > b">one</p><nav><nav>x</nav>y</nav><p>two</p>`);
    expect(text).toBe("one\ntwo");
  });

  it("survives unclosed and malformed markup", () => {
    expect(htmlToText("<p>a < b and <3</p>").text).toBe("a < b and <3");
    expect(htmlToText("<p>before<script>never closed").text).toBe("before");
    expect(htmlToText("<title>T").title).toBe("T");
  });

  it("stays linear on hostile input", () => {
    const hostile = "<script".repeat(50_000) + "<title>".repeat(50_000) + "<!--".repeat(50_000);
    expect(() => htmlToText(hostile)).not.toThrow();
  });

  it("decodes numeric and named entities, leaving unknown ones", () => {
    expect(decodeEntities("&#65;&#x42;&copy;&bogus;&#0;")).toBe("AB©&bogus;\uFFFD");
  });
});
