// The example's settings, read from the environment in this one place (as box/env.ts does for the box).
export interface ExampleEnv {
  /** The full API key the backend mints session tokens with ("" when unset). */
  apiKey: string;
  /** What `npm start` serves: the portal on one host, forwarding the box's routes to its local box. */
  baseUrl: string;
  host: string;
  port: number;
}

export function readEnv(env: Record<string, string | undefined> = process.env): ExampleEnv {
  return {
    apiKey: env.AVATAR_API_KEY ?? "",
    baseUrl: (env.AVATAR_BASE_URL ?? "http://127.0.0.1:8787").replace(/\/+$/, ""),
    host: env.EXAMPLE_HOST ?? "127.0.0.1",
    port: Number(env.EXAMPLE_PORT ?? 8790),
  };
}
