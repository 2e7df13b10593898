import { drizzle } from "drizzle-orm/d1";
import * as schema from "./schema";

/** A drizzle client over the D1 binding, with the schema for relational queries (`db.query.*`). */
export function db(d1: D1Database) {
  return drizzle(d1, { schema });
}

export type DB = ReturnType<typeof db>;
export { schema };
