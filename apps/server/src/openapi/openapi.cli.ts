// Writes the served OpenAPI document (`GET /api/v0/docs/json`) to a file: `npm test` lints it
// with Redocly, and openapi-typescript generates the typed client's types from it. The app is
// built in-process on an empty in-memory database (no data is read; nothing listens).
//   tsx apps/server/src/openapi/openapi.cli.ts <out.json> [public URL]
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { API_BASE } from '@soc/contracts';
import { buildApp } from '../app.ts';
import { testConfig } from '../config.ts';
import { openDatabase } from '../db/client.ts';

const [out, publicUrl = 'https://soc.example.org'] = process.argv.slice(2);
if (!out) {
  console.error('usage: openapi.cli.ts <out.json> [public URL]');
  process.exit(2);
}
const database = await openDatabase({ kind: 'pglite' });
try {
  await database.migrate();
  const app = await buildApp({ config: testConfig({ publicUrl }), database });
  try {
    const res = await app.inject(`${API_BASE}/docs/json`);
    if (res.statusCode !== 200) throw new Error(`OpenAPI document: ${res.statusCode} ${res.body}`);
    mkdirSync(path.dirname(path.resolve(out)), { recursive: true });
    writeFileSync(out, `${JSON.stringify(res.json(), null, 2)}\n`);
    console.log(`OpenAPI document written to ${out}`);
  } finally {
    await app.close();
  }
} finally {
  await database.close();
}
