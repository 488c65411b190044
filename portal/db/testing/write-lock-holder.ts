// Run by write-lock.ts in its own Bun process (SQLite's file locks are per process, so a lock
// taken in the test's own process would not stop that process's other connections): opens the
// file, takes the write lock (`BEGIN IMMEDIATE` or `EXCLUSIVE`), runs the given statements inside
// it, says "locked", and commits when told "release" on stdin (or rolls back if stdin ends).
import { Database } from "bun:sqlite";

const [path, mode, sql] = process.argv.slice(2);
const db = new Database(path);
db.exec(`BEGIN ${mode === "EXCLUSIVE" ? "EXCLUSIVE" : "IMMEDIATE"}`);
if (sql) db.exec(sql);
console.log("locked");
const stdin = Bun.stdin.stream().getReader();
const decoder = new TextDecoder();
let said = "";
for (;;) {
  const { value, done } = await stdin.read();
  if (done) break;
  said += decoder.decode(value);
  if (said.includes("release")) {
    db.exec("COMMIT");
    console.log("released");
    process.exit(0);
  }
}
db.exec("ROLLBACK");
process.exit(0);
