// The worker thread of the Sigma import's YAML step (rules.yaml-reader.ts starts it): reads each
// text posted to it and posts back what readSigmaYaml answers. The built server runs it as
// dist/sigma-yaml-worker.js (build.mjs).
import { parentPort } from 'node:worker_threads';
import { readSigmaYaml } from './rules.sigma-yaml.ts';

parentPort?.on('message', (text: string) => {
  parentPort!.postMessage(readSigmaYaml(text));
});
