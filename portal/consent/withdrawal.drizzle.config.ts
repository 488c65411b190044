// `node_modules/.bin/drizzle-kit generate --config portal/consent/withdrawal.drizzle.config.ts --name withdrawal_log`
// writes the withdrawal log's checked-in migrations; then make every CREATE `IF NOT EXISTS`.
import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "sqlite",
  schema: "./portal/consent/withdrawal-schema.ts",
  out: "./portal/consent/withdrawal-migrations",
});
