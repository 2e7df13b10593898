import { ERROR_CATALOGUE } from "./errors";

/**
 * Completes the OpenAPI document the routes generate, in one place instead of in every route:
 * the tags declared with descriptions, an operation description naming its credentials and the
 * catalogue's error codes per declared status, an example of every error response per code,
 * and an example of every JSON request and response body built from its schema.
 */

const TAGS: [string, string][] = [
  ["Jobs", "Upload files with processing options, follow jobs (poll or Server-Sent Events), batches, estimates, cancel and retry."],
  ["Projects", "Every job's result as an editable project: list, rename, trash, restore, duplicate, re-render and export."],
  ["Regions", "Recognised text regions of a project's pages: create, edit, merge, split, re-recognise and re-translate."],
  ["Tables", "Extracted tables: cell edits."],
  ["Exports", "Signed download links for the files a job or a project export produced."],
  ["Folders", "Folders that group projects."],
  ["Shares", "Public links to a project (optional password, expiry, downloads), managed by the owner."],
  ["Public", "What a share link opens without an account."],
  ["Glossaries", "Terms a translation must keep or render in a fixed way."],
  ["Translation memory", "Translations corrected by hand, reused by later jobs."],
  ["Account", "Profile, wallet and ledger, usage, API keys, data export and account deletion."],
  ["Webhooks", "Endpoints that receive signed event deliveries; delivery log, replay and secret rotation."],
  ["Billing", "Plans, checkout, subscriptions and payments."],
  ["Authentication", "Sign-in methods (password, magic link, two-factor codes, identity providers), sessions and CSRF."],
  ["System", "Health, readiness, provider state, configuration, languages and service status."],
  ["Admin", "Operator actions, with the administrator token."],
];

const SHARE_PATHS_NOTE =
  "`DELETE /api/v1/share/{share_id}` (the owner revokes a link) and `GET /api/v1/share/{token}` (anyone opens it) have the same path shape and differ by method and parameter name, as the interface specification fixes them. Tools that require one parameter name per path shape (Spectral's `path-params`) flag this pair; it is the only such exception.";

const DESCRIPTION = [
  "Recognise, translate, edit and convert text in images and documents.",
  "",
  "**Versioning.** The API is versioned by its path prefix (`/api/v1`); the health endpoints carry none. Within v1, changes are additive only: new operations, new optional request fields, new response fields, new error codes and new webhook event kinds. Clients ignore unknown fields and treat an unknown error code by its `retryable` flag. A change that removes or renames anything ships as `/api/v2`, with v1 served alongside for at least 12 months and announced with `Deprecation` and `Sunset` headers. `info.version` follows semantic versioning of this document.",
  "",
  '**Errors.** Every failure answers `{"error": {code, message, retryable, details, request_id}}`; clients switch on `code`. Each operation lists the codes its declared statuses can carry, and each error response has one example per code.',
  "",
  `**Share links.** ${SHARE_PATHS_NOTE}`,
].join("\n");

export const OPENAPI_INFO = {
  title: "Lingoscan API",
  description: DESCRIPTION,
  contact: { name: "Lingoscan support", url: "https://lingoscan.example.com/docs", email: "support@lingoscan.example.com" },
  license: { name: "Proprietary", url: "https://lingoscan.example.com/terms" },
};

type Json = Record<string, unknown>;
interface Media {
  schema?: Json;
  example?: unknown;
  examples?: Record<string, { $ref: string }>;
}
interface Operation {
  summary?: string;
  description?: string;
  security?: Record<string, string[]>[];
  requestBody?: { content?: Record<string, Media> };
  responses: Record<string, { description: string; content?: Record<string, Media> }>;
}
interface Document {
  tags?: { name: string; description: string }[];
  paths?: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Json>; examples?: Record<string, { summary: string; value: unknown }> };
}

const CREDENTIALS: Record<string, string> = {
  bearerAuth: "an API key (`Authorization: Bearer lik_live_…`)",
  cookieAuth: "the web app's session cookie (unsafe requests also send the CSRF value from `GET /api/v1/auth/csrf`)",
  adminToken: "the administrator token",
};

function credentials(op: Operation): string {
  const schemes = (op.security ?? []).flatMap((s) => Object.keys(s));
  return schemes.length === 0 ? "No credentials needed." : `Credentials: ${schemes.map((s) => CREDENTIALS[s] ?? s).join(" or ")}.`;
}

function codesFor(status: number): string[] {
  return Object.entries(ERROR_CATALOGUE)
    .filter(([, e]) => e.status === status)
    .map(([code]) => code);
}

function describe(op: Operation): string {
  const errors = Object.keys(op.responses)
    .map(Number)
    .filter((s) => s >= 400)
    .map(
      (s) =>
        `${s} ${
          codesFor(s)
            .map((c) => `\`${c}\``)
            .join(", ") || "(see the catalogue)"
        }`,
    );
  const lead = op.description ?? (op.summary ? `${op.summary}.` : "");
  return [lead, credentials(op), errors.length ? `Error codes by status: ${errors.join("; ")}.` : ""].filter(Boolean).join("\n\n");
}

const MAX_DEPTH = 8;

/** An example value valid for `schema`, or undefined when one cannot be built safely (an unexemplified pattern). */
export function exampleOf(schema: Json | undefined, schemas: Record<string, Json>, depth = 0): unknown {
  if (!schema || depth > MAX_DEPTH) return undefined;
  if (typeof schema.$ref === "string") return exampleOf(schemas[schema.$ref.replace("#/components/schemas/", "")], schemas, depth + 1);
  if ("example" in schema) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  if ("default" in schema) return schema.default;
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum.find((v) => v !== null) ?? schema.enum[0];
  for (const key of ["anyOf", "oneOf"] as const) {
    const options = schema[key] as Json[] | undefined;
    if (options) {
      const nonNull = options.filter((o) => o.type !== "null");
      return exampleOf(nonNull[0] ?? options[0], schemas, depth + 1);
    }
  }
  if (Array.isArray(schema.allOf)) {
    const parts = schema.allOf.map((p) => exampleOf(p as Json, schemas, depth + 1));
    if (parts.some((p) => p === undefined)) return undefined;
    return parts.every((p) => typeof p === "object" && p !== null && !Array.isArray(p)) ? Object.assign({}, ...parts) : parts[0];
  }
  const type = Array.isArray(schema.type)
    ? (schema.type.find((t) => t !== "null") as string | undefined)
    : (schema.type as string | undefined);
  switch (type) {
    case "object": {
      const out: Json = {};
      const required = new Set((schema.required as string[] | undefined) ?? []);
      for (const [k, v] of Object.entries((schema.properties as Record<string, Json> | undefined) ?? {})) {
        const value = exampleOf(v, schemas, depth + 1);
        if (value === undefined) {
          if (required.has(k)) return undefined;
          continue;
        }
        out[k] = value;
      }
      return out;
    }
    case "array": {
      const item = exampleOf(schema.items as Json | undefined, schemas, depth + 1);
      const min = (schema.minItems as number | undefined) ?? 0;
      if (item === undefined) return min === 0 ? [] : undefined;
      return Array.from({ length: Math.max(1, min) }, () => item);
    }
    case "string": {
      if (schema.pattern) return undefined;
      if (schema.format === "date-time") return "2026-01-15T09:30:00.000Z";
      if (schema.format === "email") return "ada@example.com";
      if (schema.format === "uri" || schema.format === "url") return "https://example.com/";
      if (schema.format === "binary") return undefined;
      const min = (schema.minLength as number | undefined) ?? 0;
      return "string".padEnd(Math.min(Math.max(min, 6), (schema.maxLength as number | undefined) ?? 6), "x");
    }
    case "integer":
    case "number": {
      const lo = (schema.minimum as number | undefined) ?? (typeof schema.exclusiveMinimum === "number" ? schema.exclusiveMinimum + 1 : 0);
      const hi = (schema.maximum as number | undefined) ?? Number.MAX_SAFE_INTEGER;
      return Math.min(Math.max(lo, 1), hi);
    }
    case "boolean":
      return true;
    default:
      return undefined;
  }
}

function addBodyExample(media: Media | undefined, schemas: Record<string, Json>): void {
  if (!media?.schema || media.example !== undefined || media.examples) return;
  const value = exampleOf(media.schema, schemas);
  if (value !== undefined) media.example = value;
}

/** The document with tags declared, every operation described and every JSON body and error exemplified. */
export function completeDocument<D extends object>(input: D): D {
  const doc = input as Document;
  const schemas = doc.components?.schemas ?? {};
  const used = new Set<string>();
  const exemplified = new Set<string>();
  for (const item of Object.values(doc.paths ?? {})) {
    for (const op of Object.values(item)) {
      for (const t of (op as { tags?: string[] }).tags ?? []) used.add(t);
      op.description = describe(op);
      addBodyExample(op.requestBody?.content?.["application/json"], schemas);
      for (const [status, res] of Object.entries(op.responses)) {
        const media = res.content?.["application/json"];
        if (Number(status) < 400) {
          addBodyExample(media, schemas);
          continue;
        }
        if (!media) continue;
        const codes = codesFor(Number(status));
        for (const code of codes) exemplified.add(code);
        media.examples = Object.fromEntries(codes.map((code) => [code, { $ref: `#/components/examples/${code}` }]));
      }
    }
  }
  // One example per catalogue code, referenced by every error response that can carry it.
  doc.components = {
    ...doc.components,
    examples: Object.fromEntries(
      Object.entries(ERROR_CATALOGUE)
        .filter(([code]) => exemplified.has(code))
        .map(([code, e]) => [
          code,
          {
            summary: e.description,
            value: { error: { code, message: e.description, retryable: e.retryable, details: {}, request_id: "req_0a1b2c3d4e5f6g7h8i9j" } },
          },
        ]),
    ),
  };
  const known = new Map(TAGS);
  doc.tags = [
    ...TAGS.filter(([name]) => used.has(name)),
    ...[...used].filter((t) => !known.has(t)).map((t) => [t, t] as [string, string]),
  ].map(([name, description]) => ({ name, description }));
  return input;
}
