/** Credit packs sold through checkout. Money in cents, credits as integers. */
export interface CreditPack {
  id: "credits_500" | "credits_2000" | "credits_10000";
  name: string;
  credits: number;
  price_cents: number;
  currency: "usd";
}

export const CREDIT_PACKS: Record<CreditPack["id"], CreditPack> = {
  credits_500: { id: "credits_500", name: "500 credits", credits: 500, price_cents: 500, currency: "usd" },
  credits_2000: { id: "credits_2000", name: "2,000 credits", credits: 2000, price_cents: 1800, currency: "usd" },
  credits_10000: { id: "credits_10000", name: "10,000 credits", credits: 10000, price_cents: 8000, currency: "usd" },
};

export const PACK_IDS = Object.keys(CREDIT_PACKS) as [CreditPack["id"], ...CreditPack["id"][]];
