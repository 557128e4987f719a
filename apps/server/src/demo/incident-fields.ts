import type { IncidentStatus } from '@soc/contracts';
import { DOMAINS, HOSTS } from './catalog.ts';
import type { Rng } from './rng.ts';

// Fields of a demo incident drawn from the seeded generator (incidents.ts draws the rest).

type Status = IncidentStatus;

/** Indicators of compromise as an analyst would list them for an incident on `host`. */
export function demoIocs(
  rng: Rng,
  host: string,
  user: string | undefined,
): { ioc: string; ioc_type: string; category: string[] }[] {
  const hex = (n: number) => Array.from({ length: n }, () => rng.int(0, 15).toString(16)).join('');
  const pool: (() => { ioc: string; ioc_type: string; category: string[] })[] = [
    () => ({ ioc: `203.0.113.${rng.int(2, 254)}`, ioc_type: 'ipv4', category: ['C2'] }),
    () => ({ ioc: `198.51.100.${rng.int(2, 254)}`, ioc_type: 'ipv4', category: ['scanner'] }),
    () => ({
      ioc: `${rng.pick(['update', 'cdn', 'login', 'secure'])}-${hex(4)}.example.net`,
      ioc_type: 'fqdn',
      category: ['C2'],
    }),
    () => ({
      ioc: `https://files-${hex(3)}.example.org/invoice_${rng.int(100, 999)}.zip`,
      ioc_type: 'url',
      category: ['phishing'],
    }),
    () => ({ ioc: hex(64), ioc_type: 'file', category: ['malware'] }),
    () => ({
      ioc: `billing@${rng.pick(['paypa1', 'secure-bank', 'delivery-info'])}.example.com`,
      ioc_type: 'email',
      category: ['phishing'],
    }),
    () => ({ ioc: `${host}`, ioc_type: 'device', category: ['affected'] }),
    () => ({ ioc: user ?? 'svc_backup', ioc_type: 'useraccount', category: ['compromised'] }),
    () => ({ ioc: 'powershell.exe -enc JABzAD0ATgBlAHcA', ioc_type: 'process', category: ['execution'] }),
  ];
  return rng.sample(pool, rng.int(0, 4)).map((make) => make());
}

/** A v4-shaped UUID from the seeded generator, so that ids repeat with the seed. */
export function uuidFrom(rng: Rng): string {
  const hex = Array.from({ length: 32 }, () => rng.int(0, 15).toString(16));
  hex[12] = '4';
  hex[16] = ((rng.int(0, 15) & 0x3) | 0x8).toString(16);
  const s = hex.join('');
  return `${s.slice(0, 8)}-${s.slice(8, 12)}-${s.slice(12, 16)}-${s.slice(16, 20)}-${s.slice(20)}`;
}

export const fill = (template: string, rng: Rng, user: string) =>
  template
    .replaceAll('{host}', rng.pick(HOSTS))
    .replaceAll('{ip}', `${rng.int(11, 223)}.${rng.int(0, 255)}.${rng.int(0, 255)}.${rng.int(1, 254)}`)
    .replaceAll('{user}', user)
    .replaceAll('{domain}', rng.pick(DOMAINS));

/** The status an incident of a given age is likely to have reached. */
export function statusFor(ageDays: number, rng: Rng): Status {
  if (ageDays < 2) {
    return rng.weighted<Status>([
      ['waiting_for_customer', 5],
      ['work_in_progress', 2],
      ['waiting_for_support', 2],
      ['closed', 1],
    ]);
  }
  if (ageDays < 14) {
    return rng.weighted<Status>([
      ['waiting_for_customer', 2],
      ['work_in_progress', 2],
      ['waiting_for_support', 1],
      ['customer_completed', 1],
      ['closed', 3],
      ['completed', 2],
      ['canceled', 0.3],
    ]);
  }
  return rng.weighted<Status>([
    ['waiting_for_customer', 0.3],
    ['work_in_progress', 0.2],
    ['customer_completed', 1],
    ['closed', 6],
    ['completed', 3],
    ['canceled', 0.5],
  ]);
}
