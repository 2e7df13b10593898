/** Service-wide limits, published in `/api/v1/config`. */
export const LIMITS = {
  max_upload_bytes: 50 * 1024 * 1024,
  max_batch_files: 50,
  max_image_pixels: 40_000_000,
  max_image_side: 20_000,
  max_list_limit: 100,
  max_usage_days: 365,
  signed_url_ttl_seconds: 900,
} as const;
