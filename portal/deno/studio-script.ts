// The studio's browser script on the Deno entry. Bun bundles it in-process (Bun.build); Deno has no
// offline bundler of its own (`deno bundle` downloads esbuild from npm on first use), and an edge
// deploy is built ahead of time anyway: `node_modules/.bin/bun portal/deno/build-studio.ts [file]`
// writes the bundle (default PORTAL_DATA_DIR/studio/app.js; PORTAL_STUDIO_SCRIPT names another
// file) and this entry serves it, gzip and ETag made here with Web APIs. A file rebuilt while the
// portal runs is picked up by the next request; a missing one is a 503 that says how to build it.
import type { StudioScript } from "../studio/routes.ts";

export const BUILD_COMMAND = "node_modules/.bin/bun portal/deno/build-studio.ts";

export interface FileAccess {
  readFile(path: string): Promise<Uint8Array>;
  stat(path: string): Promise<{ mtime: Date | null; size: number }>;
}

export interface PrebuiltStudioScript {
  /** For `createPortalApp({ studio: { script } })`. */
  script(): Promise<StudioScript>;
  /** Whether the file is there now (the entry answers the how-to 503 itself when not). */
  available(): Promise<boolean>;
  /** The body of that 503: a line of JavaScript, as the core's own 503s on this route. */
  missingBody(): string;
  readonly path: string;
}

async function gzip(bytes: Uint8Array): Promise<Uint8Array> {
  const stream = new Blob([bytes as BlobPart]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

async function etagOf(bytes: Uint8Array): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as BufferSource));
  return `"${[...digest.slice(0, 8)].map((b) => b.toString(16).padStart(2, "0")).join("")}"`;
}

export function prebuiltStudioScript(path: string, fs: FileAccess): PrebuiltStudioScript {
  let kept: { stamp: string; script: Promise<StudioScript> } | null = null;
  const stampOf = async () => {
    const st = await fs.stat(path);
    return `${st.mtime?.getTime() ?? 0}:${st.size}`;
  };
  return {
    path,
    async available() {
      try {
        await fs.stat(path);
        return true;
      } catch {
        return false;
      }
    },
    missingBody: () =>
      `console.error(${JSON.stringify(`The studio script is not built for the Deno entry: run \`${BUILD_COMMAND} ${path}\` where the portal's files are (or point PORTAL_STUDIO_SCRIPT at a built one), then reload.`)});`,
    async script() {
      const stamp = await stampOf();
      if (kept?.stamp !== stamp) {
        const load = async (): Promise<StudioScript> => {
          const bytes = await fs.readFile(path);
          return { code: new TextDecoder().decode(bytes), gzip: await gzip(bytes), etag: await etagOf(bytes) };
        };
        kept = { stamp, script: load() };
        kept.script.catch(() => (kept = null));
      }
      return kept.script;
    },
  };
}
