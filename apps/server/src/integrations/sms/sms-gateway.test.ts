import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testConfig } from '../../config.ts';
import { createHttpSmsGateway, fillTemplate, maskPhone } from './sms-gateway.ts';

interface Received {
  auth: string | undefined;
  type: string | undefined;
  body: string;
}
const received: Received[] = [];
let status = 200;
const server = createServer((req, res) => {
  let body = '';
  req.on('data', (c: Buffer) => (body += c.toString()));
  req.on('end', () => {
    received.push({ auth: req.headers.authorization, type: req.headers['content-type'], body });
    res.statusCode = status;
    res.end('{}');
  });
});
let url = '';
beforeAll(async () => {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/send`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('HTTP SMS gateway', () => {
  it('posts the templated JSON body with the configured credentials', async () => {
    const gateway = createHttpSmsGateway({
      ...testConfig().sms,
      gatewayUrl: url,
      gatewayAuthHeader: 'Bearer gw-key',
      bodyTemplate: '{"msisdn":"{{phone}}","message":"{{text}}"}',
    });
    await gateway.send({ to: '+79000000004', text: 'Code "123456"\nbye' });
    const last = received.at(-1)!;
    expect(last.auth).toBe('Bearer gw-key');
    expect(last.type).toBe('application/json');
    expect(JSON.parse(last.body)).toEqual({ msisdn: '+79000000004', message: 'Code "123456"\nbye' });
  });

  it('uses basic auth and form encoding when configured so', async () => {
    const gateway = createHttpSmsGateway({
      ...testConfig().sms,
      gatewayUrl: url,
      gatewayUsername: 'user',
      gatewayPassword: 'pass',
      contentType: 'application/x-www-form-urlencoded',
      bodyTemplate: 'to={{phone}}&text={{text}}',
    });
    await gateway.send({ to: '+79000000004', text: 'a b&c' });
    const last = received.at(-1)!;
    expect(last.auth).toBe(`Basic ${Buffer.from('user:pass').toString('base64')}`);
    expect(Object.fromEntries(new URLSearchParams(last.body))).toEqual({ to: '+79000000004', text: 'a b&c' });
  });

  it('rejects when the gateway answers an error', async () => {
    status = 503;
    const gateway = createHttpSmsGateway({ ...testConfig().sms, gatewayUrl: url });
    await expect(gateway.send({ to: '+79000000004', text: 'x' })).rejects.toThrow('503');
    status = 200;
  });
});

describe('helpers', () => {
  it('fills placeholders and leaves unknown ones', () => {
    expect(fillTemplate('{{code}} / {{other}}', { code: '042042' })).toBe('042042 / {{other}}');
  });
  it('masks phone numbers for logs', () => {
    expect(maskPhone('+79000000004')).toBe('+7***04');
  });
});
