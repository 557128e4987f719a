import { describe, expect, it } from 'vitest';
import {
  AlertBulkPayloadSchema,
  AlertPatchSchema,
  LinkTemplateCreateSchema,
  isSafeLink,
} from './alerts.schemas.ts';
import { IocInputSchema, groupIocs, iocProblem, isIpv6 } from './iocs.schemas.ts';

describe('IOC values per type', () => {
  const valid: [Parameters<typeof iocProblem>[0], string][] = [
    ['ipv4', '203.0.113.7'],
    ['ipv6', '2001:db8::1'],
    ['ipv6', '::ffff:192.0.2.1'],
    ['fqdn', 'update-3f2a.example.net'],
    ['url', 'https://files.example.org/invoice.zip'],
    ['email', 'billing@secure-bank.example.com'],
    ['file', 'a'.repeat(64)],
    ['file', 'invoice_0425.docm'],
    ['ja3', 'e7d705a3286e19ea42f587b344ee6865'],
    ['bankcard', '4111 1111 1111 1111'],
    ['registrykey', 'HKLM\\Software\\Microsoft\\Windows\\CurrentVersion\\Run'],
    ['certificate', 'b'.repeat(40)],
    ['subscriber', '+7 (900) 123-45-67'],
    ['process', 'powershell.exe -enc JABzAD0ATgBlAHcA'],
  ];
  const invalid: [Parameters<typeof iocProblem>[0], string][] = [
    ['ipv4', '256.1.1.1'],
    ['ipv4', '10.0.0'],
    ['ipv6', '2001:db8:::1'],
    ['ipv6', '1:2:3:4:5:6:7:8:9'],
    ['fqdn', '-bad.example'],
    ['fqdn', 'localhost'],
    ['url', 'javascript:alert(1)'],
    ['email', 'no-at.example.com'],
    ['file', 'C:\\Windows\\evil.exe'],
    ['ja3', 'xyz'],
    ['bankcard', '4111 1111 1111 1112'],
    ['registrykey', 'Software\\Run'],
    ['ipv4', ''],
  ];
  it.each(valid)('accepts %s %s', (type, value) => expect(iocProblem(type, value)).toBeNull());
  it.each(invalid)('refuses %s %s', (type, value) => expect(iocProblem(type, value)).not.toBeNull());

  it('puts the problem on the ioc field', () => {
    const result = IocInputSchema.safeParse({ ioc: '999.1.1.1', ioc_type: 'ipv4' });
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.path).toEqual(['ioc']);
    expect(isIpv6('fe80::')).toBe(true);
  });

  it('groups IOCs by type in the order of the spec', () => {
    const groups = groupIocs([
      { ioc: 'a.example.com', ioc_type: 'fqdn' as const },
      { ioc: '1.2.3.4', ioc_type: 'ipv4' as const },
      { ioc: 'b.example.com', ioc_type: 'fqdn' as const },
    ]);
    expect(groups.map((g) => [g.type, g.items.length])).toEqual([
      ['fqdn', 2],
      ['ipv4', 1],
    ]);
  });
});

describe('alert payloads', () => {
  it('refuses javascript:, data: and templates without {value}', () => {
    for (const url_template of [
      'javascript:alert({value})',
      'data:text/html,{value}',
      'https://x.example/',
    ]) {
      expect(LinkTemplateCreateSchema.safeParse({ name: 'x', field: 'host', url_template }).success).toBe(
        false,
      );
    }
    expect(
      LinkTemplateCreateSchema.safeParse({
        name: 'x',
        field: 'host',
        url_template: 'https://x.example/{value}',
      }).success,
    ).toBe(true);
    expect(isSafeLink('JavaScript:alert(1)')).toBe(false);
  });

  it('validates tags and the bulk action', () => {
    expect(AlertPatchSchema.safeParse({ tags: [{ name: 'ok', color: '#12ab34' }] }).success).toBe(true);
    expect(AlertPatchSchema.safeParse({ tags: [{ name: 'ok', color: 'url(x)' }] }).success).toBe(false);
    expect(AlertPatchSchema.safeParse({}).success).toBe(false);
    expect(AlertBulkPayloadSchema.safeParse({ action: 'reopen' }).success).toBe(false);
    expect(AlertBulkPayloadSchema.safeParse({ groups: [1], action: 'attach' }).success).toBe(false);
  });
});
