import { html } from "hono/html";
import type { PaymentRow } from "./payments.repo";

const money = (cents: number, currency: string) => `${(cents / 100).toFixed(2)} ${currency.toUpperCase()}`;

/** The sandbox provider's checkout page: what is bought, and buttons standing in for a card form. */
export function sandboxCheckoutPage(p: PaymentRow, query: string) {
  const what = p.kind === "credits" ? `${p.credits} credits (${p.product})` : `the ${p.product} plan, ${p.credits} credits a month`;
  return html`<!doctype html>
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="robots" content="noindex" />
        <title>Sandbox checkout · Lingoscan</title>
        <style>
          body {
            font:
              16px/1.5 system-ui,
              sans-serif;
            max-width: 32rem;
            margin: 4rem auto;
            padding: 0 1rem;
            color: #1f2328;
          }
          .note {
            background: #fff8c5;
            border: 1px solid #d4a72c;
            padding: 0.5rem 0.75rem;
            border-radius: 6px;
          }
          button {
            font: inherit;
            padding: 0.5rem 1rem;
            margin-right: 0.5rem;
            border-radius: 6px;
            border: 1px solid #8c959f;
            cursor: pointer;
          }
          button[value="confirm"] {
            background: #1f883d;
            color: #fff;
            border-color: #1a7f37;
          }
        </style>
      </head>
      <body>
        <h1>Sandbox checkout</h1>
        <p class="note">Development payment provider: no money moves. Production uses Stripe.</p>
        <p>Pay <strong>${money(p.amountCents, p.currency)}</strong> for ${what}.</p>
        <p>Payment <code>${p.id}</code>: <strong>${p.status}</strong></p>
        ${
          p.status === "pending"
            ? html`<form method="post" action="?${query}">
                <button name="action" value="confirm">Pay ${money(p.amountCents, p.currency)}</button>
                <button name="action" value="cancel">Cancel</button>
              </form>`
            : ""
        }
      </body>
    </html>`;
}
