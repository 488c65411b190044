// Implements: GPU lifecycle, `local` driver (the embedded default): the "instance" is a box process
// on this machine, started with BOX_PORT=0; its listening line tells the portal where to forward.
// Node/Bun only (child processes).
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import { ApiError } from "../../../shared/errors/api-error.ts";
import type { GpuDriver, GpuInstance, GpuLaunchRequest, GpuRegion, GpuStatusChecks, GpuSurvey } from "./driver.ts";

export interface LocalDriverOptions {
  /** Program and arguments that start a box; default `node_modules/.bin/bun box/main.ts`. */
  command?: string;
  args?: string[];
  cwd?: string;
  /** Environment the box inherits (PATH, HOME ...); PORTAL_* variables are never passed on. */
  baseEnv?: Readonly<Record<string, string | undefined>>;
  /** BOX_* settings for the box: BOX_DATA_DIR, BOX_KEY_TABLE_URL, BOX_ALLOWED_ORIGINS ... */
  boxEnv?: Readonly<Record<string, string>>;
  host?: string;
  startTimeoutMs?: number;
  stopTimeoutMs?: number;
  /** Receives the box's own output lines. */
  onOutput?: (line: string) => void;
}

export const LOCAL_REGION: GpuRegion = {
  id: "local",
  label: "This machine",
  dataResident: true,
  canServe: true,
  smokeTest: false,
  types: ["local"],
  ownerTypes: [],
};

interface Running {
  child: ChildProcess;
  url: string;
  exited: Promise<void>;
}

export class LocalGpuDriver implements GpuDriver {
  readonly kind = "local" as const;
  readonly bootstrapConfigured = true;
  // Each portal process runs its own local box: nothing to share with other workers.
  readonly deployment = null;
  #instance: GpuInstance | null = null;
  #running: Running | null = null;

  constructor(private readonly opts: LocalDriverOptions = {}) {}

  regions(): GpuRegion[] {
    return [LOCAL_REGION];
  }

  async describe(): Promise<GpuSurvey> {
    return { instances: this.#instance && this.#instance.state !== "terminated" ? [{ ...this.#instance }] : [], unreachable: [] };
  }

  async launch(req: GpuLaunchRequest): Promise<GpuInstance> {
    const id = `local-${crypto.randomUUID().slice(0, 8)}`;
    return this.spawnBox(id, req.maxRuntimeSeconds);
  }

  async start(instance: GpuInstance): Promise<GpuInstance> {
    return this.spawnBox(instance.instanceId, this.#maxRuntime);
  }

  async stop(_instance: GpuInstance): Promise<GpuInstance> {
    await this.kill();
    if (this.#instance) this.#instance = { ...this.#instance, state: "stopped" };
    return { ...this.#instance! };
  }

  async terminate(_instance: GpuInstance): Promise<GpuInstance> {
    await this.kill();
    const last = { ...this.#instance!, state: "terminated" as const };
    this.#instance = null;
    return last;
  }

  async statusChecks(instance: GpuInstance): Promise<GpuStatusChecks> {
    const url = this.#running?.url;
    if (instance.state !== "running" || !url) return { instance_status: "not-applicable", system_status: "not-applicable", checks: [] };
    let healthy = false;
    try {
      const res = await fetch(new URL("/health", url), { signal: AbortSignal.timeout(3000) });
      healthy = res.ok && (await res.json()).status === "ok";
    } catch {
      healthy = false;
    }
    return {
      instance_status: healthy ? "ok" : "impaired",
      system_status: "ok",
      checks: [
        { name: "system.process", status: "passed" },
        { name: "instance.health", status: healthy ? "passed" : "failed" },
      ],
    };
  }

  boxUrl(): string | null {
    return this.#running?.url ?? null;
  }

  async close(): Promise<void> {
    await this.kill();
  }

  #maxRuntime = 0;

  private async spawnBox(instanceId: string, maxRuntimeSeconds: number): Promise<GpuInstance> {
    this.#maxRuntime = maxRuntimeSeconds;
    const host = this.opts.host ?? "127.0.0.1";
    const env: Record<string, string> = {};
    for (const [k, v] of Object.entries(this.opts.baseEnv ?? {})) if (v !== undefined && !k.startsWith("PORTAL_")) env[k] = v;
    Object.assign(env, this.opts.boxEnv, { BOX_HOST: host, BOX_PORT: "0" });
    if (maxRuntimeSeconds > 0) env.BOX_MAX_RUNTIME_SECONDS = String(maxRuntimeSeconds);

    const child = spawn(this.opts.command ?? "node_modules/.bin/bun", this.opts.args ?? ["box/main.ts"], {
      cwd: this.opts.cwd,
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
    const tail: string[] = [];
    const remember = (line: string) => {
      tail.push(line);
      if (tail.length > 20) tail.shift();
      this.opts.onOutput?.(line);
    };
    createInterface({ input: child.stderr! }).on("line", remember);

    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error("did not print its listening line in time")), this.opts.startTimeoutMs ?? 60_000);
      const lines = createInterface({ input: child.stdout! });
      let found = false;
      lines.on("line", (line) => {
        if (!found) {
          try {
            const parsed = JSON.parse(line) as { listening?: unknown };
            if (typeof parsed.listening === "string") {
              found = true;
              clearTimeout(timer);
              resolve(parsed.listening);
              return;
            }
          } catch {
            // Not the listening line: ordinary output.
          }
        }
        remember(line);
      });
      child.once("error", (err) => (clearTimeout(timer), reject(err)));
      child.once("exit", (code, signal) => (clearTimeout(timer), reject(new Error(`exited (${signal ?? code}) before listening`))));
    }).catch(async (err: Error) => {
      child.kill("SIGKILL");
      await exited;
      throw new ApiError(502, "gpu_unavailable", `The box did not start: ${err.message}. ${tail.slice(-3).join(" | ")}`);
    });

    this.#running = { child, url, exited };
    this.#instance = {
      instanceId,
      state: "running",
      instanceType: "local",
      region: LOCAL_REGION.id,
      availabilityZone: null,
      publicIp: host,
      hostname: new URL(url).host,
      launchedAt: Math.floor(Date.now() / 1000),
      ephemeral: false,
    };
    // A box that ends by itself (its own runtime limit, a crash) is a stopped instance.
    void exited.then(() => {
      if (this.#running?.child !== child) return;
      this.#running = null;
      if (this.#instance && this.#instance.instanceId === instanceId) this.#instance = { ...this.#instance, state: "stopped" };
    });
    return { ...this.#instance };
  }

  private async kill(): Promise<void> {
    const running = this.#running;
    if (!running) return;
    this.#running = null;
    running.child.kill("SIGTERM");
    const timeout = new Promise<"timeout">((r) => setTimeout(() => r("timeout"), this.opts.stopTimeoutMs ?? 10_000).unref?.());
    if ((await Promise.race([running.exited, timeout])) === "timeout") {
      running.child.kill("SIGKILL");
      await running.exited;
    }
  }
}
