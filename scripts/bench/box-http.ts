// Benchmark: GET /api/chat/status and GET /api/settings on the real box with a key checked
// against the key table on every request (no cache). 64 connections, 10 s each, loopback.
// Run: node_modules/.bin/bun scripts/bench/box-http.ts   (install `wrk` for the best load tool)
import { createClient } from "@libsql/client";
import { mkdtempSync } from "node:fs";
import { tmpdir, cpus } from "node:os";
import { join } from "node:path";
import { migrateKeyTable } from "../../shared/key-table/migrate.ts";
import { sha256Hex } from "../../box/auth/principal.ts";
import { spawnBox } from "../../box/testing/spawn-box.ts";
import { load } from "./load.ts";

const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const dir = mkdtempSync(join(tmpdir(), "bench-box-"));
const ktUrl = `file:${join(dir, "keys.db")}`;
const kt = createClient({ url: ktUrl });
await migrateKeyTable(kt);
const key = "ak_benchmark_key_0000000000000000000000000000";
await kt.execute({
  sql: "INSERT INTO credentials (id, kind, scope, owner, created_at) VALUES (?, 'api_key', 'full', 'bench@x.test', ?)",
  args: [sha256Hex(key), Math.floor(Date.now() / 1000)],
});
kt.close();

const box = await spawnBox({ BOX_KEY_TABLE_URL: ktUrl });
try {
  console.log(`machine: ${cpus().length} x ${cpus()[0]?.model}; box ${box.url}; key table ${ktUrl}`);
  for (const path of ["/api/chat/status", "/api/settings"]) {
    await load(box.url + path, { "x-api-key": key }, 8, 1); // warm-up
    const r = await load(box.url + path, { "x-api-key": key }, 64, seconds);
    console.log(
      JSON.stringify({
        route: `GET ${path}`,
        connections: 64,
        seconds,
        ...r,
        rps: Math.round(r.rps),
        p50_ms: +r.p50_ms.toFixed(2),
        p99_ms: +r.p99_ms.toFixed(2),
      }),
    );
  }
} finally {
  await box.stop();
}
