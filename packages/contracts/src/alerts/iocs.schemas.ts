import { z } from 'zod';
import type { IocType } from '../incidents/incident-card.schemas.ts';
import { IOC_TYPES, IocSchema, IocTypeSchema } from '../incidents/incident-card.schemas.ts';
import { resultsOf } from '../common/lists.schemas.ts';

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;
const HEX_GROUP = /^[0-9a-f]{1,4}$/i;
const FQDN = /^(?=.{1,253}$)(?!-)([a-z0-9-]{1,63}(?<!-)\.)+[a-z]{2,63}$/i;
const EMAIL = /^[a-z0-9.!#$%&'*+/=?^_`{|}~-]+@([a-z0-9-]{1,63}\.)+[a-z]{2,63}$/i;
const HASH = /^([0-9a-f]{32}|[0-9a-f]{40}|[0-9a-f]{64}|[0-9a-f]{128})$/i;
const JA3 = /^[0-9a-f]{32}$/i;
const REGISTRY_ROOTS =
  /^(HKLM|HKCU|HKCR|HKU|HKCC|HKEY_LOCAL_MACHINE|HKEY_CURRENT_USER|HKEY_CLASSES_ROOT|HKEY_USERS|HKEY_CURRENT_CONFIG)(\\|$)/i;

/** True for a textual IPv6 address (full, compressed, or with an embedded IPv4 tail). */
export function isIpv6(value: string): boolean {
  let text = value;
  const lastColon = text.lastIndexOf(':');
  if (text.includes('.')) {
    if (!IPV4.test(text.slice(lastColon + 1))) return false;
    text = `${text.slice(0, lastColon + 1)}0:0`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return false;
  const parts = (s: string) => (s === '' ? [] : s.split(':'));
  const head = parts(halves[0]!);
  const tail = halves.length === 2 ? parts(halves[1]!) : [];
  if (![...head, ...tail].every((g) => HEX_GROUP.test(g))) return false;
  const n = head.length + tail.length;
  return halves.length === 2 ? n < 8 : n === 8;
}

/** Why `value` is not a valid indicator of `type`, or null when it is (product §A3 IOC). */
export function iocProblem(type: IocType, value: string): string | null {
  const v = value.trim();
  if (!v) return 'This field may not be blank.';
  if (v.length > 2048) return 'Ensure this field has no more than 2048 characters.';
  switch (type) {
    case 'ipv4':
      return IPV4.test(v) ? null : 'Enter a valid IPv4 address.';
    case 'ipv6':
      return isIpv6(v) ? null : 'Enter a valid IPv6 address.';
    case 'fqdn':
      return FQDN.test(v) ? null : 'Enter a valid domain name.';
    case 'url': {
      try {
        const u = new URL(v);
        return ['http:', 'https:', 'ftp:'].includes(u.protocol) && u.hostname
          ? null
          : 'Enter a valid http, https or ftp URL.';
      } catch {
        return 'Enter a valid URL.';
      }
    }
    case 'email':
      return EMAIL.test(v) ? null : 'Enter a valid email address.';
    case 'file':
      // a hash (MD5, SHA-1, SHA-256, SHA-512) or a file name without path separators
      // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
      return HASH.test(v) || (!/[\\/\u0000]/.test(v) && v.length <= 255)
        ? null
        : 'Enter an MD5, SHA-1, SHA-256 or SHA-512 hash or a file name.';
    case 'certificate':
      return /^([0-9a-f]{40}|[0-9a-f]{64}|([0-9a-f]{2}:){19,31}[0-9a-f]{2})$/i.test(v)
        ? null
        : 'Enter the certificate thumbprint (SHA-1 or SHA-256).';
    case 'ja3':
      return JA3.test(v) ? null : 'Enter a JA3 fingerprint (32 hex digits).';
    case 'bankcard': {
      const digits = v.replace(/[\s-]/g, '');
      if (!/^\d{12,19}$/.test(digits)) return 'Enter a card number of 12 to 19 digits.';
      let sum = 0;
      for (let i = 0; i < digits.length; i++) {
        let d = Number(digits[digits.length - 1 - i]);
        if (i % 2 === 1) d = d * 2 > 9 ? d * 2 - 9 : d * 2;
        sum += d;
      }
      return sum % 10 === 0 ? null : 'Enter a card number with a valid check digit.';
    }
    case 'subscriber':
      return /^\+?\d{7,15}$/.test(v.replace(/[\s()-]/g, ''))
        ? null
        : 'Enter a phone number (7 to 15 digits).';
    case 'registrykey':
      return REGISTRY_ROOTS.test(v) ? null : 'Enter a registry key starting with a hive (HKLM, HKCU…).';
    case 'useraccount':
      // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
      return /[\s]{2,}|[\u0000-\u001f]/.test(v) || v.length > 256 ? 'Enter a user account name.' : null;
    case 'device':
    case 'process':
    case 'message':
    case 'custom':
      // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
      return /[\u0000-\u0008\u000b\u000c\u000e-\u001f]/.test(v)
        ? 'Control characters are not allowed.'
        : null;
  }
}

/** An IOC as analysts enter it: the value must suit its type. */
export const IocInputSchema = z
  .strictObject({
    ioc: z.string({ error: 'This field is required.' }).trim(),
    ioc_type: IocTypeSchema,
    category: z.array(z.string().trim().min(1).max(64)).max(10).default([]),
  })
  .superRefine((v, ctx) => {
    const problem = iocProblem(v.ioc_type, v.ioc);
    if (problem) ctx.addIssue({ code: 'custom', path: ['ioc'], message: problem });
  });
export type IocInput = z.input<typeof IocInputSchema>;

/** IOCs grouped by type in the order of IOC_TYPES (the IOC tab, product §A2). */
export function groupIocs<T extends { ioc_type: IocType }>(
  iocs: readonly T[],
): { type: IocType; items: T[] }[] {
  return IOC_TYPES.map((type) => ({ type, items: iocs.filter((i) => i.ioc_type === type) })).filter(
    (g) => g.items.length > 0,
  );
}

/** Most IOCs an incident lists. */
export const INCIDENT_IOCS_MAX = 500;

/** PUT /soc/incs/{key}/iocs/ (analysts): the incident's whole IOC list. */
export const IncidentIocsPayloadSchema = z.strictObject({
  iocs: z
    .array(IocInputSchema)
    .max(INCIDENT_IOCS_MAX, { error: `Ensure this field has no more than ${INCIDENT_IOCS_MAX} elements.` }),
});
export type IncidentIocsPayload = z.input<typeof IncidentIocsPayloadSchema>;
export const IocListSchema = resultsOf(IocSchema);
