import { defineConfig } from "drizzle-kit";

/** PostgreSQL (cluster mode): `bun run db:generate:pg` writes migrations to db/migrations-pg. */
export default defineConfig({
  dialect: "postgresql",
  schema: "./db/schema-pg.ts",
  out: "./db/migrations-pg",
});
