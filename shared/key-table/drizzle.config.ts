import { defineConfig } from "drizzle-kit";

export default defineConfig({
  dialect: "sqlite",
  schema: "./shared/key-table/schema.ts",
  out: "./shared/key-table/migrations",
});
