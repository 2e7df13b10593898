import { ApiError } from "../../http/errors";
import { LIMITS } from "../../lib/limits";
import { signFileUrl } from "../exports/signed-url";
import type { PageRow } from "./pages.repo";

/** Signs R2 FILES keys for one response; every URL shares the same short expiry. */
export function fileSigner(env: Env, origin: string, now = Date.now()) {
  if (!env.SIGNING_SECRET) throw new ApiError("service_unavailable", "File signing is not configured (SIGNING_SECRET).");
  const secret = env.SIGNING_SECRET;
  const ttl = LIMITS.signed_url_ttl_seconds;
  return {
    expiresAt: new Date((Math.floor(now / 1000) + ttl) * 1000),
    sign: async (key: string | null, filename: string): Promise<string | null> =>
      key ? (await signFileUrl(secret, origin, key, filename, ttl, now)).url : null,
  };
}

/** Signed URLs of a page's image (the one region boxes refer to) and of its rendered result. */
export async function pageUrls(signer: ReturnType<typeof fileSigner>, page: PageRow) {
  const n = page.pageIndex + 1;
  return {
    image_url: await signer.sign(page.imageKey, `page-${n}.png`),
    render_url: await signer.sign(page.renderKey, `page-${n}-rendered.png`),
  };
}
