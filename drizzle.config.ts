import { defineConfig } from "drizzle-kit";

// Migrations are generated with `npm run db:generate` (drizzle-kit generate) and applied by
// wrangler (`wrangler d1 migrations apply`, migrations_dir = "migrations") and by the tests.
export default defineConfig({
  dialect: "sqlite",
  schema: "./src/db/schema.ts",
  out: "./migrations",
});
