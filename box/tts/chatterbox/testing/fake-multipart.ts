// What the fake Chatterbox needs of multipart/form-data (FastAPI's `UploadFile`), and the
// server's `utils.sanitize_filename`, so uploads are stored under the names the real one uses.

export interface UploadedPart {
  field: string;
  filename?: string;
  contentType?: string;
  bytes: Uint8Array;
}

export function parseMultipart(body: Buffer, contentType: string): UploadedPart[] {
  const m = /boundary=(?:"([^"]+)"|([^;\s]+))/i.exec(contentType);
  if (!m) return [];
  const boundary = Buffer.from(`--${m[1] ?? m[2]}`);
  const parts: UploadedPart[] = [];
  let pos = body.indexOf(boundary);
  while (pos >= 0) {
    const start = pos + boundary.length;
    if (body.subarray(start, start + 2).toString() === "--") break;
    const next = body.indexOf(boundary, start);
    if (next < 0) break;
    const part = body.subarray(start + 2, next - 2); // CRLF after the boundary, CRLF before the next
    const headEnd = part.indexOf("\r\n\r\n");
    if (headEnd >= 0) {
      const head = part.subarray(0, headEnd).toString("utf8");
      const disposition = /content-disposition:[^\r\n]*/i.exec(head)?.[0] ?? "";
      parts.push({
        field: /\bname="([^"]*)"/i.exec(disposition)?.[1] ?? "",
        filename: /\bfilename="([^"]*)"/i.exec(disposition)?.[1],
        contentType: /content-type:\s*([^\r\n]+)/i.exec(head)?.[1],
        bytes: new Uint8Array(part.subarray(headEnd + 4)),
      });
    }
    pos = next;
  }
  return parts;
}

/** devnen `utils.sanitize_filename`: base name, `[A-Za-z0-9._- ]` kept, spaces and runs of others → `_`. */
export function sanitizeFilename(name: string): string {
  const base = name.replace(/^.*[/\\]/, "").trim();
  let out = "";
  let lastUnderscore = false;
  for (const c of base) {
    if (/[A-Za-z0-9._\- ]/.test(c)) {
      out += c === " " ? "_" : c;
      lastUnderscore = c === " ";
    } else if (!lastUnderscore) {
      out += "_";
      lastUnderscore = true;
    }
  }
  out = out.replace(/^_+|_+$/g, "");
  if (!out || out.replace(/^[._]+/, "") === "") return "sanitized_file_00000000";
  if (out.length > 100) {
    const dot = out.lastIndexOf(".");
    const ext = dot > 0 ? out.slice(dot, dot + 10) : "";
    out = out.slice(0, 100 - ext.length - 1) + ext;
  }
  return out;
}
