import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser } from 'playwright-core';
import type { RuleListResponse, SigmaImportResult } from '@soc/contracts';
import { seriousViolations } from './support/axe.ts';
import { launchBrowser, newPage } from './support/browser.ts';
import { DEMO_PASSWORD, signIn } from './support/session.ts';

const baseUrl = inject('baseUrl');
let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(() => browser.close());

/** A Sigma rule written for this test (no rule of the public repository is copied). */
const RULE_ID = 'e2e0c0de-5151-4aaa-8aaa-000000000001';
const TITLE = 'E2E Suspicious Certutil Download';
const YAML = `title: ${TITLE}
id: ${RULE_ID}
status: stable
description: Detects certutil fetching a file from the internet.
references:
    - https://example.com/certutil
author: E2E Author
date: 2024-05-06
tags:
    - attack.command-and-control
    - attack.t1105
logsource:
    category: process_creation
    product: windows
detection:
    selection:
        Image|endswith: '\\certutil.exe'
        CommandLine|contains: 'urlcache'
    condition: selection # one selection
falsepositives:
    - Administrators installing software
level: high
`;

async function token(username: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/v0/auth/token/obtain/`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ username, password: DEMO_PASSWORD }),
  });
  return ((await response.json()) as { access: string }).access;
}

describe('an imported Sigma rule', () => {
  let ruleId: number;

  it('is imported by an administrator through the admin API', async () => {
    const form = new FormData();
    form.append('services', 'Vision,Horizon,Focus,Panorama');
    form.append('files', new Blob([YAML], { type: 'application/yaml' }), 'certutil.yml');
    const response = await fetch(`${baseUrl}/api/v0/admin/rules/import/`, {
      method: 'POST',
      headers: { authorization: `Bearer ${await token('admin')}`, 'accept-language': 'en' },
      body: form,
    });
    expect(response.status).toBe(200);
    const result = (await response.json()) as SigmaImportResult;
    expect(result.errors).toEqual([]);
    expect(result.created + result.updated + result.unchanged).toBe(1);
    const found = await fetch(`${baseUrl}/api/v0/soc/rules/?search=${encodeURIComponent(TITLE)}`, {
      headers: { authorization: `Bearer ${await token('analyst')}` },
    });
    const list = (await found.json()) as RuleListResponse;
    expect(list.results.map((r) => r.rule_id)).toEqual([RULE_ID]);
    ruleId = list.results[0]!.id;
  });

  it.each(['light', 'dark'] as const)(
    'shows its page with the YAML highlighted, its author and licence (%s theme)',
    async (theme) => {
      const { context, page } = await newPage(browser, { colorScheme: theme });
      await page.addInitScript((t) => localStorage.setItem('currentTheme', t), theme);
      await signIn(page, baseUrl, 'analyst');
      await page.goto(`${baseUrl}/rule/${ruleId}`);
      const yaml = page.getByTestId('rule-yaml');
      await yaml.waitFor();
      expect(await yaml.textContent()).toBe(YAML);
      expect(await yaml.locator('.hljs-attr').first().innerText()).toMatch(/^title:?$/);
      expect(await yaml.locator('.hljs-comment').innerText()).toBe('# one selection');
      // a key and a string are coloured apart from the plain text
      const colours = await yaml.evaluate((el) => ({
        plain: getComputedStyle(el).color,
        key: getComputedStyle(el.querySelector('.hljs-attr')!).color,
        text: getComputedStyle(el.querySelector('.hljs-string')!).color,
      }));
      expect(new Set([colours.plain, colours.key, colours.text]).size).toBe(3);
      expect(await page.getByRole('heading', { level: 1 }).innerText()).toBe(TITLE);
      const origin = page.getByTestId('rule-origin');
      expect(await origin.innerText()).toContain('E2E Author');
      expect(await origin.innerText()).toContain('Administrators installing software');
      const licence = page.getByTestId('rule-licence');
      expect(await licence.innerText()).toContain('Detection Rule License (DRL) 1.1');
      expect(await licence.getByRole('link').getAttribute('href')).toBe(
        'https://github.com/SigmaHQ/Detection-Rule-License',
      );
      expect(await seriousViolations(page)).toEqual([]);
      await context.close();
    },
  );
});
