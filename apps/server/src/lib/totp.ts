import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  randomBytes,
  timingSafeEqual,
} from 'node:crypto';

/** RFC 6238 defaults that every authenticator app supports: SHA-1, 6 digits, 30-second steps. */
export const TOTP_STEP_SECONDS = 30;
const DIGITS = 6;
const BASE32 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

export function base32Encode(bytes: Buffer): string {
  let bits = 0;
  let value = 0;
  let out = '';
  for (const byte of bytes) {
    value = (value << 8) | byte;
    bits += 8;
    while (bits >= 5) {
      out += BASE32[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += BASE32[(value << (5 - bits)) & 31];
  return out;
}

export function base32Decode(text: string): Buffer {
  const clean = text.replace(/[\s=]/g, '').toUpperCase();
  let bits = 0;
  let value = 0;
  const out: number[] = [];
  for (const char of clean) {
    const index = BASE32.indexOf(char);
    if (index < 0) throw new Error('invalid base32');
    value = (value << 5) | index;
    bits += 5;
    if (bits >= 8) {
      out.push((value >>> (bits - 8)) & 255);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/** RFC 4226 HOTP of one counter value. */
export function hotp(secret: Buffer, counter: number, digits = DIGITS): string {
  const message = Buffer.alloc(8);
  message.writeBigUInt64BE(BigInt(counter));
  const mac = createHmac('sha1', secret).update(message).digest();
  const offset = mac[mac.length - 1]! & 0x0f;
  const code = (mac.readUInt32BE(offset) & 0x7fffffff) % 10 ** digits;
  return String(code).padStart(digits, '0');
}

export const timeStep = (at: number = Date.now()): number => Math.floor(at / 1000 / TOTP_STEP_SECONDS);

/**
 * The time step whose code equals `code`, looking one step back and ahead for clock drift, or
 * null. Compared in constant time.
 */
export function matchTotp(secret: Buffer, code: string, at: number = Date.now()): number | null {
  const now = timeStep(at);
  let found: number | null = null;
  for (const step of [now - 1, now, now + 1]) {
    const expected = Buffer.from(hotp(secret, step));
    const given = Buffer.from(code.padEnd(DIGITS, ' ').slice(0, DIGITS));
    if (timingSafeEqual(expected, given) && found === null) found = step;
  }
  return found;
}

export const newTotpSecret = (): Buffer => randomBytes(20);

/** The `otpauth://` URI that authenticator apps import (by QR code or by hand). */
export const otpauthUrl = (issuer: string, account: string, secret: Buffer): string =>
  `otpauth://totp/${encodeURIComponent(`${issuer}:${account}`)}?${new URLSearchParams({
    secret: base32Encode(secret),
    issuer,
    algorithm: 'SHA1',
    digits: String(DIGITS),
    period: String(TOTP_STEP_SECONDS),
  }).toString()}`;

/** TOTP secrets are stored encrypted (AES-256-GCM) with a key derived from the server secret. */
const keyFrom = (serverSecret: Uint8Array) =>
  createHash('sha256').update('totp:').update(serverSecret).digest();

export function sealSecret(secret: Buffer, serverSecret: Uint8Array): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyFrom(serverSecret), iv);
  const body = Buffer.concat([cipher.update(secret), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url')).join('.');
}

/**
 * Opens a sealed secret with the server secret or, after a rotation, the previous one
 * (JWT_SECRET_PREVIOUS): GCM's tag tells which key sealed it. Throws when neither did.
 */
export function openSecret(sealed: string, serverSecret: Uint8Array, previous?: Uint8Array): Buffer {
  const [iv, tag, body] = sealed.split('.').map((p) => Buffer.from(p, 'base64url'));
  const open = (key: Uint8Array) => {
    const decipher = createDecipheriv('aes-256-gcm', keyFrom(key), iv!);
    decipher.setAuthTag(tag!);
    return Buffer.concat([decipher.update(body!), decipher.final()]);
  };
  try {
    return open(serverSecret);
  } catch (err) {
    if (!previous) throw err;
    return open(previous);
  }
}
