// `node_modules/.bin/drizzle-kit generate --config portal/consent/ledger.drizzle.config.ts --name ledger`
// writes the ledger's checked-in migrations; then make every CREATE `IF NOT EXISTS` (see migrate.ts).
import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "sqlite",
  schema: "./portal/consent/ledger-schema.ts",
  out: "./portal/consent/ledger-migrations",
});
