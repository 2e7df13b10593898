import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { inject } from "vitest";

// Storage is isolated per test file; every file starts migrated and with the models seeded.
await applyD1Migrations(env.DB, env.TEST_MIGRATIONS);
for (const [key, b64] of Object.entries(inject("models"))) {
  if (!(await env.MODELS.head(key))) {
    await env.MODELS.put(
      key,
      Uint8Array.from(atob(b64), (c) => c.charCodeAt(0)),
    );
  }
}
