// `node_modules/.bin/drizzle-kit generate --config shared/avatar-tables/drizzle.config.ts --name avatar_tables`
// writes the checked-in migrations; then make every CREATE `IF NOT EXISTS` (see migrate.ts).
import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "sqlite",
  schema: "./shared/avatar-tables/schema.ts",
  out: "./shared/avatar-tables/migrations",
});
