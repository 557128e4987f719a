import type { TestProject } from 'vitest/node';
import { ensureChromium } from './support/browser.ts';
import { startServer } from './support/server.ts';

/** One server for the whole browser suite; each test file signs in as its own users. */
export default async function setup(project: TestProject) {
  ensureChromium();
  const server = await startServer();
  project.provide('baseUrl', server.url);
  return async () => {
    await server.stop();
  };
}
