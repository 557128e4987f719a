import type { Config } from '../../core/config.ts';
import type { Db } from '../../db/client.ts';
import { createSmsOutboxRepository } from './sms-outbox.repository.ts';

export { createSmsOutboxRepository } from './sms-outbox.repository.ts';

export interface SmsMessage {
  /** E.164 phone number. */
  to: string;
  text: string;
}

export interface SmsGateway {
  /** Delivers a message; rejects when the gateway refuses it or cannot be reached. */
  send(message: SmsMessage): Promise<void>;
}

/** A phone number as it may appear in logs: country code and the last two digits. */
export const maskPhone = (phone: string): string =>
  phone.length <= 6 ? '***' : `${phone.slice(0, 2)}***${phone.slice(-2)}`;

/** `{{name}}` placeholders of a template, each value passed through `escape`. */
export function fillTemplate(
  template: string,
  values: Record<string, string>,
  escape: (value: string) => string = (v) => v,
): string {
  return template.replace(/\{\{(\w+)\}\}/g, (whole, name: string) =>
    name in values ? escape(values[name]!) : whole,
  );
}

/** The inside of a JSON string literal (without the quotes). */
const jsonEscape = (value: string): string => JSON.stringify(value).slice(1, -1);

/**
 * An HTTP SMS provider: one request per message, body from a template, credentials as a
 * header or HTTP basic auth. Any 2xx is success.
 */
export function createHttpSmsGateway(options: Config['sms'] & { gatewayUrl: string }): SmsGateway {
  const isJson = options.contentType.includes('json');
  const isForm = options.contentType.includes('x-www-form-urlencoded');
  return {
    async send({ to, text }) {
      const escape = isJson ? jsonEscape : isForm ? encodeURIComponent : (v: string) => v;
      const body = fillTemplate(options.bodyTemplate, { phone: to, text }, escape);
      const headers: Record<string, string> = { 'content-type': options.contentType };
      if (options.gatewayAuthHeader) headers.authorization = options.gatewayAuthHeader;
      else if (options.gatewayUsername) {
        const basic = Buffer.from(`${options.gatewayUsername}:${options.gatewayPassword ?? ''}`).toString(
          'base64',
        );
        headers.authorization = `Basic ${basic}`;
      }
      const response = await fetch(options.gatewayUrl, {
        method: 'POST',
        headers,
        body,
        signal: AbortSignal.timeout(10_000),
      });
      // the body may echo the message: never put it into the error
      await response.body?.cancel();
      if (!response.ok) throw new Error(`SMS gateway answered ${response.status}`);
    },
  };
}

/** The embedded default: messages are kept in the `sms_outbox` table for the demo outbox page. */
export function createOutboxSmsGateway(db: Db): SmsGateway {
  return {
    async send({ to, text }) {
      await createSmsOutboxRepository(db).insertOutboxMessage(to, text);
    },
  };
}

/** Without a gateway and with the outbox off, no code can reach anyone: sign-in with SMS fails. */
const noGateway: SmsGateway = {
  send: () => Promise.reject(new Error('No SMS gateway is configured (SMS_GATEWAY_URL)')),
};

export function createSmsGateway(db: Db, sms: Config['sms']): SmsGateway {
  if (sms.gatewayUrl) return createHttpSmsGateway({ ...sms, gatewayUrl: sms.gatewayUrl });
  return sms.outbox ? createOutboxSmsGateway(db) : noGateway;
}
