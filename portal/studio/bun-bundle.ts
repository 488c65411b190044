// Bun only (the runtime entry's part): bundles the studio's browser script with Bun.build once,
// minified for browsers, and keeps it with its gzip bytes. Nothing is fetched at run time.
import { fileURLToPath } from "node:url";
import type { StudioScript } from "./routes.ts";

export const STUDIO_ENTRY = fileURLToPath(new URL("./browser/main.ts", import.meta.url));

export async function buildStudioScript(entry = STUDIO_ENTRY): Promise<StudioScript & { ms: number }> {
  const started = performance.now();
  const result = await Bun.build({ entrypoints: [entry], target: "browser", format: "esm", minify: true, sourcemap: "none" });
  if (!result.success || result.outputs.length !== 1) {
    throw new Error(`Bun.build failed: ${result.logs.map((l) => String(l)).join("\n") || "no output"}`);
  }
  const code = await result.outputs[0].text();
  return {
    code,
    gzip: Bun.gzipSync(code, { level: 9 }),
    etag: `"${Bun.hash(code).toString(16)}"`,
    ms: Math.round(performance.now() - started),
  };
}

/** A provider for `studio.script`: the first call builds, later calls share that build (a failed one is retried). */
export function studioScriptProvider(log: (msg: string, err?: unknown) => void): () => Promise<StudioScript> {
  let built: Promise<StudioScript> | null = null;
  return () =>
    (built ??= buildStudioScript().then(
      (s) => {
        log(
          `portal: studio script built in ${s.ms} ms (${(s.code.length / 1024).toFixed(1)} KB, ${((s.gzip?.length ?? 0) / 1024).toFixed(1)} KB gzip)`,
        );
        return s;
      },
      (err) => {
        built = null;
        throw err;
      },
    ));
}
