import type { MailMessage, Mailer } from "./mail-message";

/**
 * A transactional-mail HTTP API taking `POST {from, to[], subject, text, html}` with a Bearer key
 * (Resend's `/emails` shape, also offered by several other providers).
 */
export class HttpApiMailer implements Mailer {
  readonly name = "http";
  constructor(
    private readonly config: { url: string; apiKey: string; from: string },
    private readonly fetcher: typeof fetch = fetch,
  ) {}

  async send(message: MailMessage): Promise<void> {
    const res = await this.fetcher(this.config.url, {
      method: "POST",
      headers: { Authorization: `Bearer ${this.config.apiKey}`, "Content-Type": "application/json" },
      body: JSON.stringify({
        from: this.config.from,
        to: [message.to],
        subject: message.subject,
        text: message.text,
        ...(message.html ? { html: message.html } : {}),
        tags: [{ name: "kind", value: message.kind }],
      }),
    });
    if (!res.ok) throw new Error(`mail API answered ${res.status}: ${(await res.text()).slice(0, 200)}`);
  }
}
