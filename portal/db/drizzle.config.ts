// `npx drizzle-kit generate --config portal/db/drizzle.config.ts` writes the checked-in migrations.
import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "sqlite",
  schema: "./portal/db/schema.ts",
  out: "./portal/db/migrations",
});
