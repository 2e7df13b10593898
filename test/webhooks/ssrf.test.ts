import { describe, expect, it } from "vitest";
import { checkWebhookUrl, type UrlPolicy } from "../../src/modules/webhooks/url-guard";
import { seedAccount } from "../helpers/api";
import { createEndpoint, RECEIVER } from "./helpers";

/** Refused through the API as it runs in development (loopback literals allowed, names resolved by the DoH stub). */
const REFUSED: [string, string][] = [
  ["http://10.0.0.1/hook", "private"],
  ["http://10.255.3.4:8080/hook", "private"],
  ["http://172.16.0.5/", "private"],
  ["http://192.168.1.1/", "private"],
  ["http://100.64.0.1/", "private"],
  ["http://169.254.169.254/latest/meta-data/", "link_local"],
  ["http://0x0a000001/", "private"],
  ["http://012.0.0.1/", "private"],
  ["http://167772161/", "private"],
  ["http://0.0.0.0/", "reserved"],
  ["http://[fd00::1]/", "private"],
  ["http://[fe80::1]/", "link_local"],
  ["http://[::ffff:10.0.0.1]/", "private"],
  ["http://[::ffff:169.254.169.254]/", "link_local"],
  ["http://[64:ff9b::a00:1]/", "private"],
  ["http://[ff02::1]/", "reserved"],
  ["http://intranet.lingoscan-tests.net/hook", "private"],
  ["http://metadata.lingoscan-tests.net/", "link_local"],
  ["http://v6loop.lingoscan-tests.net/", "loopback"],
  ["http://mixed.lingoscan-tests.net/", "private"],
  ["http://nowhere.lingoscan-tests.net/", "unresolvable"],
  ["http://10.0.0.1.nip.io/", "private"],
  ["http://app-192-168-0-1.sslip.io/", "private"],
  ["http://0a000001.nip.io/", "private"],
  ["http://printer/", "private"],
  ["http://db.internal/", "private"],
  ["http://nas.local/", "private"],
  ["ftp://public.lingoscan-tests.net/", "scheme"],
  ["http://user:secret@public.lingoscan-tests.net/", "credentials"],
];

describe("webhook URLs never reach private networks (SSRF)", () => {
  it.each(REFUSED)("refuses %s (%s)", async (url, reason) => {
    const { auth } = await seedAccount();
    const res = await createEndpoint(auth, { url, events: ["*"] });
    expect(res.status, JSON.stringify(res.body)).toBe(422);
    expect(res.body.error.code).toBe("validation_error");
    expect(res.body.error.details.fields[0], JSON.stringify(res.body)).toMatchObject({ field: "url", code: reason });
  });

  it("accepts public names and, in development, loopback literals", async () => {
    const { auth } = await seedAccount();
    for (const url of ["https://public.lingoscan-tests.net/hooks", `${RECEIVER}/hook/dev`]) {
      const res = await createEndpoint(auth, { url, events: ["*"] });
      expect(res.status, JSON.stringify(res.body)).toBe(201);
    }
  });

  describe("in production (https only, no loopback)", () => {
    const production: UrlPolicy = {
      requireHttps: true,
      allowLoopback: false,
      resolver: `${RECEIVER}/dns-query`,
      fetch: (i, init) => fetch(i, init),
    };
    it.each([
      ["https://127.0.0.1/hook", "loopback"],
      ["https://127.9.9.9:8443/", "loopback"],
      ["https://[::1]/", "loopback"],
      ["https://[::ffff:127.0.0.1]/", "loopback"],
      ["https://localhost/", "loopback"],
      ["https://api.localhost/", "loopback"],
      ["http://public.lingoscan-tests.net/", "scheme"],
    ])("refuses %s (%s)", async (url, reason) => {
      const err = await checkWebhookUrl(url, production).then(
        () => null,
        (e: any) => e,
      );
      expect(err?.code, String(err)).toBe("validation_error");
      expect(err.details.fields[0].code).toBe(reason);
    });

    it("accepts an https URL whose name resolves only to public addresses", async () => {
      const url = await checkWebhookUrl("https://public.lingoscan-tests.net/hooks", production);
      expect(url.hostname).toBe("public.lingoscan-tests.net");
    });

    it("answers service_unavailable when the resolver cannot be reached (never lets the name through)", async () => {
      const err = await checkWebhookUrl("https://public.lingoscan-tests.net/", {
        ...production,
        resolver: "http://127.0.0.1:9/dns-query",
      }).then(
        () => null,
        (e: any) => e,
      );
      expect(err?.code, String(err)).toBe("service_unavailable");
    });
  });
});
