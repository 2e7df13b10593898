import { afterEach, describe, expect, it, vi } from "vitest";
import { log, tracing } from "../../src/lib/log";

afterEach(() => vi.restoreAllMocks());

describe("log", () => {
  it("writes one JSON line with level, message, time and the fields; an error with its stack", () => {
    const err = vi.spyOn(console, "error").mockImplementation(() => undefined);
    log.error("webhook delivery crashed", { delivery_id: "dlv_1", error: new TypeError("boom") });
    expect(err).toHaveBeenCalledTimes(1);
    const record = JSON.parse(String(err.mock.calls[0]![0]));
    expect(record).toMatchObject({ level: "error", msg: "webhook delivery crashed", delivery_id: "dlv_1" });
    expect(record.error).toMatch(/^TypeError: boom\n\s+at /);
    expect(Date.parse(record.time)).not.toBeNaN();
  });

  it("sends info to console.log and warn to console.warn", () => {
    const info = vi.spyOn(console, "log").mockImplementation(() => undefined);
    const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    log.info("request", { status: 200 });
    log.warn("job hub publish failed", { error: "gone" });
    expect(JSON.parse(String(info.mock.calls[0]![0]))).toMatchObject({ level: "info", status: 200 });
    expect(JSON.parse(String(warn.mock.calls[0]![0]))).toMatchObject({ level: "warn", error: "gone" });
  });

  it("traces requests and stages in deployed environments only", () => {
    expect(tracing({ ENVIRONMENT: "development" })).toBe(false);
    expect(tracing({ ENVIRONMENT: "production" })).toBe(true);
  });
});
