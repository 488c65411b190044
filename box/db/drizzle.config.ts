import { defineConfig } from "drizzle-kit";

export default defineConfig({ dialect: "sqlite", schema: "./box/db/schema.ts", out: "./box/db/migrations" });
