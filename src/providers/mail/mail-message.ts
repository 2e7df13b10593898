/** One message: plain text always, HTML optional. */
export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** What the mail is for (`verify_email`, `magic_link`, …); the outbox lists it, providers may tag it. */
  kind: string;
}

/** Sends transactional mail. Implementations: the development outbox and an HTTP mail API. */
export interface Mailer {
  readonly name: string;
  send(message: MailMessage): Promise<void>;
}
