import { describe, expect, it } from "vitest";
import apiDocs from "../../docs/api.md?raw";
import { ERROR_CATALOGUE } from "../../src/http/errors";
import { api, body } from "../helpers/api";

describe("error catalogue", () => {
  it("is documented in the API manual, code by code, with its status and retryable flag", () => {
    for (const [code, spec] of Object.entries(ERROR_CATALOGUE)) {
      expect(apiDocs, `docs/api.md lacks ${code}`).toMatch(new RegExp(`\\| \`${code}\` \\| ${spec.status} \\| ${spec.retryable} \\|`));
    }
  });

  it("is published in the OpenAPI document", async () => {
    const doc = await body(await api("/api/v1/openapi.json"));
    expect(doc.components.schemas.ErrorOut.properties.error.properties.code.enum.sort()).toEqual(Object.keys(ERROR_CATALOGUE).sort());
  });
});
