import type { MailMessage } from "../../providers/mail/mailer";

/** The sign-in mails. Links open the web app, which posts the token to the matching API call. */
export const authMail = {
  verifyEmail(to: string, link: string): MailMessage {
    return {
      to,
      kind: "verify_email",
      subject: "Confirm your email address for Lingoscan",
      text: `Confirm your email address by opening this link within 24 hours:\n\n${link}\n\nIf you did not create a Lingoscan account, ignore this message.`,
    };
  },
  magicLink(to: string, link: string): MailMessage {
    return {
      to,
      kind: "magic_link",
      subject: "Your Lingoscan sign-in link",
      text: `Sign in to Lingoscan by opening this link within 15 minutes. It works once:\n\n${link}\n\nIf you did not ask for it, ignore this message.`,
    };
  },
  resetPassword(to: string, link: string): MailMessage {
    return {
      to,
      kind: "reset_password",
      subject: "Reset your Lingoscan password",
      text: `Choose a new password by opening this link within 1 hour. It works once, and signs out every other session:\n\n${link}\n\nIf you did not ask for it, ignore this message: your password stays as it is.`,
    };
  },
};
