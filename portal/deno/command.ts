// How the portal's Deno entry is started: one place for the tests (portal/testing/portal-process.ts),
// the benchmark (scripts/bench/portal-deno.ts) and docs/deploying.md. Deno comes from the npm package
// `deno` (its binary is in @deno/linux-x64-glibc, installed by `npm ci`); nothing is downloaded at
// run time:
//   --node-modules-dir=manual  resolve hono, @libsql/client, drizzle-orm, ... from the project's
//                              node_modules (package.json), never install or fetch npm packages
//   --cached-only --no-remote  no remote module, no npm registry
//   --no-lock                  no deno.lock written beside package-lock.json
// (checked offline, in a network namespace: `unshare -n node_modules/.bin/deno run ... portal/deno.ts`).
export const DENO_BIN = "node_modules/.bin/deno";

const RESOLUTION = ["--node-modules-dir=manual", "--cached-only", "--no-remote", "--no-lock", "--no-prompt"];

/**
 * Permissions by where it runs:
 *   local  a `file:` database through the native libSQL binding (Node-API: --allow-ffi; it reads
 *          the machine's libc and CPUs: --allow-sys), the outbox folder, the asset folder and the
 *          generated secret (--allow-write), sharp for portraits
 *   edge   what an edge host grants: network, environment, reading its own files, and the OS
 *          release (the AWS SDK puts it in its user agent: ec2 and s3 need --allow-sys=osRelease).
 *          No native code, no subprocess, no writes: a hosted libSQL over HTTP, PORTAL_SECRET,
 *          SMTP, the `ec2` or `none` driver, S3 for media (portal/deno-edge.int.test.ts runs it)
 */
export const DENO_PERMISSIONS = {
  local: ["--allow-net", "--allow-env", "--allow-read", "--allow-write", "--allow-ffi", "--allow-sys"],
  edge: ["--allow-net", "--allow-env", "--allow-read", "--allow-sys=osRelease"],
} as const;

export type DenoProfile = keyof typeof DENO_PERMISSIONS;

/** Arguments after DENO_BIN, run from the repository root. */
export function denoPortalArgs(profile: DenoProfile = "local", entry = "portal/deno.ts"): string[] {
  return ["run", ...RESOLUTION, ...DENO_PERMISSIONS[profile], entry];
}

/** Environment that keeps Deno quiet and offline (no update check, no prompt, no colour codes in logs). */
export const DENO_ENV = { DENO_NO_UPDATE_CHECK: "1", DENO_NO_PROMPT: "1", NO_COLOR: "1" } as const;
