// Implements: Built-in tools — `fetch_url` (public page; addresses resolving to private ranges refused).
// Only text pages are read; HTML is reduced to readable text, capped for the model.
import { BUILTIN_LABELS } from "./labels.ts";
import { argsObject, requiredString } from "./args.ts";
import { htmlToText, tidy } from "./html-text.ts";
import { FETCH_DEFAULTS, openPage, type PageFetchOptions } from "./page-fetch.ts";
import { MAX_URL_LENGTH } from "./ssrf-guard.ts";
import { ToolError, type BuiltinTool } from "./types.ts";

export interface FetchUrlOptions extends PageFetchOptions {
  /** Characters of extracted text handed to the model. Default 6000. */
  maxChars?: number;
}

export const FETCH_MAX_CHARS = 6000;

type Kind = "html" | "text" | "xml";

/** What the declared type lets us read; undefined means refused; "" means not declared (sniffed later). */
export function pageKind(contentType: string): Kind | "" | undefined {
  const mime = contentType.split(";")[0].trim().toLowerCase();
  if (!mime) return "";
  if (mime === "text/html" || mime === "application/xhtml+xml") return "html";
  if (mime === "application/xml" || mime === "text/xml" || mime.endsWith("+xml")) return "xml";
  if (mime.startsWith("text/") || mime === "application/json" || mime.endsWith("+json")) return "text";
  return undefined;
}

function sniff(body: Buffer): Kind | undefined {
  const head = body.subarray(0, 1024);
  if (head.includes(0)) return undefined;
  return /<(!doctype html|html|head|body)\b/i.test(head.toString("latin1")) ? "html" : "text";
}

function decode(body: Buffer, contentType: string, kind: Kind): string {
  let charset = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType)?.[1];
  if (!charset && kind === "html")
    charset = /<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i.exec(body.subarray(0, 2048).toString("latin1"))?.[1];
  try {
    return new TextDecoder(charset ?? "utf-8").decode(body);
  } catch {
    return new TextDecoder("utf-8").decode(body); // unknown label: read as UTF-8 rather than fail
  }
}

function shorten(text: string, max: number): { text: string; cut: boolean } {
  if (text.length <= max) return { text, cut: false };
  let end = max;
  const space = text.lastIndexOf(" ", max);
  if (space > max - 200) end = space;
  else if (/[\uD800-\uDBFF]/.test(text[end - 1])) end -= 1; // never split a surrogate pair
  return { text: `${text.slice(0, end)} …`, cut: true };
}

function networkError(err: unknown, cancelled: boolean, timedOut: boolean, timeoutMs: number): ToolError {
  if (err instanceof ToolError) return err;
  const detail = err instanceof Error ? `${(err as NodeJS.ErrnoException).code ?? err.name}: ${err.message}` : String(err);
  if (cancelled) return new ToolError("The page fetch was cancelled.", detail);
  if (timedOut) return new ToolError(`The page took longer than ${timeoutMs / 1000} seconds, so it was not read.`, detail);
  const code = String((err as NodeJS.ErrnoException)?.code ?? "");
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return new ToolError("That site's name could not be found.", detail);
  if (code === "ECONNREFUSED") return new ToolError("The site refused the connection.", detail);
  if (code === "ECONNRESET" || code === "EPIPE") return new ToolError("The site closed the connection early.", detail);
  if (/CERT|TLS|SSL|SELF_SIGNED|UNABLE_TO_VERIFY|ALTNAME/.test(code))
    return new ToolError("The site's secure connection could not be verified.", detail);
  if (code.startsWith("HPE_")) return new ToolError("The site sent a malformed response.", detail);
  return new ToolError("The page could not be loaded.", detail);
}

export function createFetchUrl(options: FetchUrlOptions = {}): BuiltinTool {
  const timeoutMs = options.timeoutMs ?? FETCH_DEFAULTS.timeoutMs;
  const maxBytes = options.maxBytes ?? FETCH_DEFAULTS.maxBytes;
  const maxChars = options.maxChars ?? FETCH_MAX_CHARS;
  return {
    name: "fetch_url",
    label: BUILTIN_LABELS.fetch_url,
    description:
      "Read the text of a public web page (http or https). Returns the page title and its readable text, shortened. " +
      "Local, private-network and non-text addresses are refused.",
    parameters: {
      type: "object",
      properties: { url: { type: "string", description: 'Full address of the page, e.g. "https://example.com/news".' } },
      required: ["url"],
    },
    async run(args, ctx) {
      let url = requiredString(argsObject(args, "fetch_url"), "url", MAX_URL_LENGTH);
      if (!/^[a-z][a-z0-9+.-]*:/i.test(url)) url = `https://${url}`; // "example.com/page" as models often write it
      const timeout = AbortSignal.timeout(timeoutMs);
      const signal = AbortSignal.any([ctx.signal, timeout]);
      try {
        const page = await openPage(url, { ...options, timeoutMs, maxBytes }, signal);
        if (page.status >= 400 || page.status < 200) {
          page.discard();
          throw new ToolError(`The page answered with HTTP status ${page.status}, so there is nothing to read.`);
        }
        const contentType = String(page.headers["content-type"] ?? "");
        let kind = pageKind(contentType);
        if (kind === undefined) {
          page.discard();
          const mime = contentType.split(";")[0].trim().slice(0, 80);
          throw new ToolError(`That address is not a text page (it is ${mime}), so it was not read.`);
        }
        const { body, truncated } = await page.read();
        if (kind === "") kind = sniff(body);
        if (kind === undefined) throw new ToolError("That address is not a text page, so it was not read.");
        const raw = decode(body, contentType, kind);
        const { title, text } = kind === "text" ? { title: "", text: tidy(raw) } : htmlToText(raw);
        const short = shorten(text, maxChars);
        const lines = [`Page: ${page.url}`];
        if (title) lines.push(`Title: ${title}`);
        if (truncated) lines.push(`Note: only the first ${Math.round(maxBytes / 1024)} KB of the page was read.`);
        if (short.cut) lines.push(`Note: the text was shortened to about ${maxChars} characters.`);
        return `${lines.join("\n")}\n\n${short.text || "(The page has no readable text.)"}`;
      } catch (err) {
        throw networkError(err, ctx.signal.aborted, timeout.aborted, timeoutMs);
      }
    },
  };
}
