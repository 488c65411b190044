// Readable text from an HTML page for `fetch_url`: one linear scan (no backtracking regex over the
// page, so a hostile page cannot make it slow), dropping script/style/nav and other non-content parts.

/** Elements whose whole content is dropped. */
const DROP = new Set(["script", "style", "noscript", "template", "svg", "math", "nav", "iframe", "object", "canvas", "select", "button"]);
/** Elements that start a new line. */
const BLOCK = new Set([
  "address",
  "article",
  "aside",
  "blockquote",
  "br",
  "dd",
  "div",
  "dl",
  "dt",
  "fieldset",
  "figcaption",
  "figure",
  "footer",
  "form",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "header",
  "hr",
  "li",
  "main",
  "ol",
  "p",
  "pre",
  "section",
  "table",
  "tbody",
  "td",
  "tfoot",
  "th",
  "thead",
  "tr",
  "ul",
  "body",
  "html",
  "summary",
  "details",
  "caption",
]);

const NAMED: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  ensp: " ",
  emsp: " ",
  thinsp: " ",
  copy: "©",
  reg: "®",
  trade: "™",
  hellip: "…",
  mdash: "—",
  ndash: "–",
  minus: "−",
  lsquo: "‘",
  rsquo: "’",
  sbquo: "‚",
  ldquo: "“",
  rdquo: "”",
  bdquo: "„",
  laquo: "«",
  raquo: "»",
  bull: "•",
  middot: "·",
  deg: "°",
  euro: "€",
  pound: "£",
  yen: "¥",
  cent: "¢",
  times: "×",
  divide: "÷",
  sect: "§",
  para: "¶",
  plusmn: "±",
  frac12: "½",
  frac14: "¼",
  frac34: "¾",
  micro: "µ",
  shy: "",
  zwj: "",
  zwnj: "",
  larr: "←",
  rarr: "→",
  uarr: "↑",
  darr: "↓",
  eacute: "é",
  egrave: "è",
  agrave: "à",
  aacute: "á",
  ccedil: "ç",
  ouml: "ö",
  uuml: "ü",
  auml: "ä",
  szlig: "ß",
  ntilde: "ñ",
  iexcl: "¡",
  iquest: "¿",
};

export function decodeEntities(text: string): string {
  return text.replace(/&(#[0-9]{1,7}|#[xX][0-9a-fA-F]{1,6}|[a-zA-Z][a-zA-Z0-9]{1,31});/g, (whole, body: string) => {
    if (body[0] !== "#") return NAMED[body] ?? NAMED[body.toLowerCase()] ?? whole;
    const code = body[1] === "x" || body[1] === "X" ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
    if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return "\uFFFD";
    return String.fromCodePoint(code);
  });
}

/** Index just past the `>` closing the tag that starts at `from`, honouring quoted attribute values. */
function tagEnd(html: string, from: number): number {
  let quote = "";
  for (let i = from; i < html.length; i++) {
    const c = html[i];
    if (quote) {
      if (c === quote) quote = "";
    } else if (c === '"' || c === "'") {
      quote = c;
    } else if (c === ">") {
      return i + 1;
    }
  }
  return html.length;
}

const TAG = /<(\/?)([a-zA-Z][a-zA-Z0-9-]*)/y;
const TITLE_CLOSE = /<\/title/gi;

export interface PageText {
  title: string;
  text: string;
}

export function htmlToText(html: string): PageText {
  const out: string[] = [];
  let title = "";
  let skip = ""; // name of the dropped element we are inside
  let skipDepth = 0;
  let i = 0;
  while (i < html.length) {
    const lt = html.indexOf("<", i);
    if (lt === -1) {
      if (!skip) out.push(html.slice(i));
      break;
    }
    if (!skip) out.push(html.slice(i, lt));
    if (html.startsWith("<!--", lt)) {
      const end = html.indexOf("-->", lt + 4);
      i = end === -1 ? html.length : end + 3;
      continue;
    }
    if (html[lt + 1] === "!" || html[lt + 1] === "?") {
      i = tagEnd(html, lt + 1);
      continue;
    }
    TAG.lastIndex = lt;
    const m = TAG.exec(html);
    if (!m) {
      if (!skip) out.push("<");
      i = lt + 1;
      continue;
    }
    const closing = m[1] === "/";
    const name = m[2].toLowerCase();
    const end = tagEnd(html, TAG.lastIndex);
    const selfClosing = html[end - 2] === "/";
    i = end;
    if (skip) {
      if (name === skip && !selfClosing) skipDepth += closing ? -1 : 1;
      if (skipDepth === 0) skip = "";
      continue;
    }
    if (!closing && !selfClosing && DROP.has(name)) {
      skip = name;
      skipDepth = 1;
    } else if (!closing && name === "title") {
      TITLE_CLOSE.lastIndex = end;
      const close = TITLE_CLOSE.exec(html)?.index ?? -1;
      const stop = close === -1 ? html.length : close;
      if (!title) title = collapse(decodeEntities(html.slice(end, stop)));
      i = close === -1 ? html.length : tagEnd(html, close);
    } else if (name === "li" && !closing) {
      out.push("\n- ");
    } else if (name === "td" || name === "th") {
      out.push(" ");
    } else if (BLOCK.has(name)) {
      out.push("\n");
    }
  }
  return { title, text: tidy(decodeEntities(out.join(""))) };
}

const collapse = (s: string) => s.replace(/\s+/g, " ").trim();

/** Collapses runs of spaces within lines and drops blank lines (one line per block keeps it compact). */
export function tidy(text: string): string {
  return text
    .split(/\r?\n/)
    .map((line) => line.replace(/[\s\u00a0]+/g, " ").trim())
    .filter((line) => line !== "" && line !== "-") // "-": a list item that held only dropped content
    .join("\n");
}
