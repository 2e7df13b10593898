// The migrations read by vitest.config.mts (`readD1Migrations("./migrations")`) and applied by test/setup.ts.
declare namespace Cloudflare {
  interface Env {
    TEST_MIGRATIONS: import("cloudflare:test").D1Migration[];
  }
}
