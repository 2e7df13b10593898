import { describe, expect, it } from "vitest";
import committed from "../../sdk/openapi.json";
import { ERROR_CATALOGUE } from "../../src/http/errors";
import { exampleOf } from "../../src/http/openapi-document";
import { api, body } from "../helpers/api";

const doc = await body(await api("/api/v1/openapi.json"));
const operations = Object.entries<any>(doc.paths).flatMap(([path, ops]) =>
  Object.entries<any>(ops).map(([method, op]) => ({ name: `${method.toUpperCase()} ${path}`, op })),
);

describe("API reference", () => {
  it("is the document the SDK's types were generated from (sdk/openapi.json)", () => {
    expect(doc).toEqual(committed);
  });

  it("declares every tag an operation uses, with a description", () => {
    const declared = new Map<string, string>(doc.tags.map((t: { name: string; description: string }) => [t.name, t.description]));
    for (const { name, op } of operations) for (const t of op.tags) expect(declared.get(t), `${name}: tag ${t}`).toBeTruthy();
    expect(doc.info.contact.email).toMatch(/@/);
  });

  it.each(operations)("$name: description with credentials and the error codes of each declared status", ({ op }) => {
    expect(op.summary).toBeTruthy();
    expect(op.description).toMatch(/Credentials: |No credentials needed\./);
    for (const [status, res] of Object.entries<any>(op.responses)) {
      if (Number(status) < 400) continue;
      const codes = Object.entries(ERROR_CATALOGUE)
        .filter(([, e]) => e.status === Number(status))
        .map(([c]) => c);
      const examples = res.content["application/json"].examples;
      expect(Object.keys(examples).sort()).toEqual(codes.sort());
      for (const code of codes) {
        expect(op.description).toContain(`\`${code}\``);
        expect(examples[code].$ref).toBe(`#/components/examples/${code}`);
        expect(doc.components.examples[code].value.error).toMatchObject({
          code,
          retryable: ERROR_CATALOGUE[code as keyof typeof ERROR_CATALOGUE].retryable,
        });
      }
    }
  });
});

describe("exampleOf", () => {
  const schemas = { Ref: { type: "object", properties: { n: { type: "integer", minimum: 3 } }, required: ["n"] } };
  it.each([
    [{ type: "string", format: "date-time" }, "2026-01-15T09:30:00.000Z"],
    [{ type: "integer", minimum: 5, maximum: 9 }, 5],
    [{ anyOf: [{ type: "null" }, { type: "boolean" }] }, true],
    [{ type: "array", items: { $ref: "#/components/schemas/Ref" }, minItems: 2 }, [{ n: 3 }, { n: 3 }]],
    [
      { allOf: [{ $ref: "#/components/schemas/Ref" }, { type: "object", properties: { s: { type: "string", example: "x" } } }] },
      { n: 3, s: "x" },
    ],
    [{ type: "object", properties: { code: { type: "string", pattern: "^[a-z]+$" } }, required: ["code"] }, undefined],
    [{ type: "object", properties: { code: { type: "string", pattern: "^[a-z]+$" }, ok: { type: "boolean" } } }, { ok: true }],
  ])("%j → %j", (schema, expected) => {
    expect(exampleOf(schema, schemas)).toEqual(expected);
  });
});
