// The part of Deno's global namespace the Deno entry uses, typed here so that the project's own
// `tsc` (which knows Bun and Node, not Deno) checks these files too. At run time under Deno this is
// the real `globalThis.Deno`; nothing here is imported by the Web-standard core.

export interface DenoServeOptions {
  hostname: string;
  port: number;
  /** Called once the socket is bound; giving one keeps Deno from printing its own "Listening" line. */
  onListen(addr: { hostname: string; port: number }): void;
  signal?: AbortSignal;
}

export interface DenoHttpServer {
  readonly addr: { hostname: string; port: number };
  readonly finished: Promise<void>;
  shutdown(): Promise<void>;
}

export interface DenoApi {
  serve(options: DenoServeOptions, handler: (req: Request) => Response | Promise<Response>): DenoHttpServer;
  upgradeWebSocket(req: Request, options?: { protocol?: string; idleTimeout?: number }): { socket: WebSocket; response: Response };
  env: { toObject(): Record<string, string> };
  addSignalListener(signal: "SIGTERM" | "SIGINT", handler: () => void): void;
  exit(code?: number): never;
  readFile(path: string): Promise<Uint8Array>;
  stat(path: string): Promise<{ mtime: Date | null; size: number; isFile: boolean }>;
  unrefTimer(id: number): void;
  readonly version: { deno: string; v8: string; typescript: string };
}

/** The running Deno's API, or null on another runtime (Bun, Node: tests import these modules too). */
export function denoOrNull(): DenoApi | null {
  return ((globalThis as { Deno?: DenoApi }).Deno ?? null) as DenoApi | null;
}

export function deno(): DenoApi {
  const d = denoOrNull();
  if (!d) throw new Error("portal/deno.ts runs under Deno: node_modules/.bin/deno run ... portal/deno.ts (see portal/deno/command.ts)");
  return d;
}
