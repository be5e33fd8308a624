/** The service's one way out to e-mail: a message sent through the configured SMTP server with nodemailer. */
import type { Transporter } from 'nodemailer';
import type { SmtpConfig } from '../config.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
  close(): void;
}

/** nodemailer is loaded with the first message: a service that sends none never pays for it. */
export function smtpMailer(config: SmtpConfig): Mailer {
  let transport: Promise<Transporter> | undefined;
  let closed = false;
  const open = async (): Promise<Transporter> => {
    const { default: nodemailer } = await import('nodemailer');
    return nodemailer.createTransport({
      host: config.host,
      port: config.port,
      secure: config.secure,
      ...(config.user === undefined ? {} : { auth: { user: config.user, pass: config.password ?? '' } }),
    });
  };
  return {
    async send(message) {
      if (closed) throw new Error('the mailer is closed');
      transport ??= open();
      await (await transport).sendMail({ from: config.from, ...message });
    },
    close: () => {
      closed = true;
      void transport?.then((opened) => opened.close());
    },
  };
}
