/** A real SMTP server on 127.0.0.1 that keeps every message it is given (the service's e-mail tests). */
import { SMTPServer } from 'smtp-server';

export interface ReceivedMail {
  to: string[];
  raw: string;
}

export interface TestSmtp {
  port: number;
  received: ReceivedMail[];
  close(): Promise<void>;
}

export async function startSmtp(): Promise<TestSmtp> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((rcpt) => rcpt.address), raw: Buffer.concat(chunks).toString('utf8') });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.server.address();
  if (address === null || typeof address === 'string') throw new Error('no port');
  return { port: address.port, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

/** The service's SMTP settings for a test server. */
export function smtpConfig(smtp: TestSmtp): { host: string; port: number; secure: boolean; from: string } {
  return { host: '127.0.0.1', port: smtp.port, secure: false, from: 'assets@example.test' };
}

/** The sign-up confirmation code a mail carries (its own line of three base64url parts). */
export function confirmationCodeIn(mail: ReceivedMail): string {
  const code = /^([\w-]+\.[\w-]+\.[\w-]+)\r?$/m.exec(mail.raw.replace(/=\r?\n/g, ''))?.[1];
  if (code === undefined) throw new Error(`no confirmation code in ${mail.raw}`);
  return code;
}
