// Implements: "Model catalogue row": capability flags are probe results, cached on the box
// volume so a restart does not probe again. One JSON file, keyed by provider + model.
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { ModelProbe } from "./types.ts";

export interface ProbeCacheOptions {
  /** Volume directory; without one the cache lives in memory only. */
  dir?: string;
  fileName?: string;
}

interface Entry {
  /** Where the model was reached; a probe taken against another server is not reused. */
  endpoint: string;
  probed_at: number;
  probe: ModelProbe;
}

interface FileShape {
  version: 1;
  entries: Record<string, Entry>;
}

export class ProbeCache {
  readonly path: string | undefined;
  private entries: Record<string, Entry> | undefined;
  private loading: Promise<Record<string, Entry>> | undefined;
  private inFlight = new Map<string, Promise<ModelProbe>>();
  private writing: Promise<void> = Promise.resolve();

  constructor(options: ProbeCacheOptions = {}) {
    this.path = options.dir ? join(options.dir, options.fileName ?? "llm-probes.json") : undefined;
  }

  static key(provider: string, model: string): string {
    return `${provider}:${model}`;
  }

  async get(provider: string, model: string, endpoint: string): Promise<ModelProbe | undefined> {
    const entry = (await this.load())[ProbeCache.key(provider, model)];
    return entry && entry.endpoint === endpoint ? entry.probe : undefined;
  }

  async set(provider: string, model: string, endpoint: string, probe: ModelProbe): Promise<void> {
    const entries = await this.load();
    entries[ProbeCache.key(provider, model)] = { endpoint, probed_at: Math.floor(Date.now() / 1000), probe };
    await this.persist();
  }

  /** Cached result, else runs the probe once (concurrent callers share it) and stores it. */
  async getOrProbe(provider: string, model: string, endpoint: string, run: () => Promise<ModelProbe>): Promise<ModelProbe> {
    const hit = await this.get(provider, model, endpoint);
    if (hit) return hit;
    const key = ProbeCache.key(provider, model);
    let pending = this.inFlight.get(key);
    if (!pending) {
      pending = run()
        .then(async (probe) => {
          await this.set(provider, model, endpoint, probe);
          return probe;
        })
        .finally(() => this.inFlight.delete(key));
      this.inFlight.set(key, pending);
    }
    return pending;
  }

  private load(): Promise<Record<string, Entry>> {
    if (this.entries) return Promise.resolve(this.entries);
    this.loading ??= this.readFile().then((e) => (this.entries = e));
    return this.loading;
  }

  private async readFile(): Promise<Record<string, Entry>> {
    if (!this.path) return {};
    try {
      const parsed = JSON.parse(await readFile(this.path, "utf8")) as FileShape;
      return parsed && parsed.version === 1 && typeof parsed.entries === "object" ? parsed.entries : {};
    } catch {
      // Missing or unreadable: probes simply run again.
      return {};
    }
  }

  private persist(): Promise<void> {
    const path = this.path;
    if (!path) return Promise.resolve();
    // Writes are chained and go through a temp file so a crash never leaves half a file.
    this.writing = this.writing
      .catch(() => undefined)
      .then(async () => {
        const body: FileShape = { version: 1, entries: this.entries ?? {} };
        await mkdir(dirname(path), { recursive: true });
        const tmp = `${path}.${process.pid}.tmp`;
        await writeFile(tmp, JSON.stringify(body, null, 2));
        await rename(tmp, path);
      });
    return this.writing;
  }
}
