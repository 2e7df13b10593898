/** Service-wide limits, published in `/api/v1/config`. */
export const LIMITS = {
  max_upload_bytes: 50 * 1024 * 1024,
  /** Files per POST /batch, and their total size (the whole request is bounded by the api's body limit too). */
  max_batch_files: 50,
  max_batch_bytes: 50 * 1024 * 1024,
  /** How long an Idempotency-Key's stored response is replayed. */
  idempotency_key_ttl_seconds: 24 * 60 * 60,
  max_image_pixels: 40_000_000,
  max_image_side: 20_000,
  max_list_limit: 100,
  max_usage_days: 365,
  signed_url_ttl_seconds: 900,
  /** Requests per API key or session (anonymous: per client IP) in each period; wrangler.toml RL_API says the same. */
  api_requests_per_period: 600,
  api_rate_period_seconds: 60,
} as const;
