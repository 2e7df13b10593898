/** Plans: the same data `/api/v1/config` and `/api/v1/billing/plans` show. Money in cents, credits as integers. */
export interface Plan {
  id: "free" | "pro" | "business";
  name: string;
  price_cents: number;
  currency: "usd";
  monthly_credits: number;
  page_limit: number;
  concurrency: number;
  features: string[];
}

export const PLANS: Record<Plan["id"], Plan> = {
  free: {
    id: "free",
    name: "Free",
    price_cents: 0,
    currency: "usd",
    monthly_credits: 50,
    page_limit: 10,
    concurrency: 1,
    features: ["ocr", "translate", "tables", "erase", "share_links"],
  },
  pro: {
    id: "pro",
    name: "Pro",
    price_cents: 1900,
    currency: "usd",
    monthly_credits: 2000,
    page_limit: 200,
    concurrency: 4,
    features: ["ocr", "translate", "tables", "erase", "share_links", "batch", "webhooks", "glossaries", "api"],
  },
  business: {
    id: "business",
    name: "Business",
    price_cents: 9900,
    currency: "usd",
    monthly_credits: 15000,
    page_limit: 1000,
    concurrency: 16,
    features: ["ocr", "translate", "tables", "erase", "share_links", "batch", "webhooks", "glossaries", "api", "priority"],
  },
};

export function planOf(id: string): Plan {
  return PLANS[id as Plan["id"]] ?? PLANS.free;
}
