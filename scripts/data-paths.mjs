// The public data inputs of the portal and its tests, which are never copied into the repository:
// the MITRE ATT&CK Enterprise STIX bundle (docs/design.md §2) and the SigmaHQ rules (issue 30). The code
// reads them only from ATTACK_STIX_PATH and SIGMA_RULES_DIR; this file is the one place that knows
// where they are kept on a development machine, beside the repository in its sibling folder `shared/data/`.
// `scripts/start.mjs` and `scripts/test.mjs` pass what it finds to the processes they start.
//
// `node scripts/data-paths.mjs [--beside DIR]…` prints the found ones as shell exports (`.ci/run`
// evaluates them); each `--beside` names another folder to look in after that sibling folder.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** The folder beside the repository that holds the data inputs. */
const BESIDE_REPOSITORY = path.resolve(import.meta.dirname, '..', '..', 'shared', 'data');

/** Where each input lies under such a folder, and what the tests use without it. */
const INPUTS = {
  ATTACK_STIX_PATH: {
    file: 'attack/enterprise-attack.json',
    without: "the repository's compact ATT&CK file",
  },
  SIGMA_RULES_DIR: { file: 'sigma/rules', without: "the tests' own few Sigma rules" },
};

/**
 * The data inputs as environment variables: each one as the environment sets it (even to a path
 * that is missing, or to nothing: that is the caller's choice), else its file under the first of
 * `places` that holds it; left out when neither.
 */
export function dataPaths(places = [BESIDE_REPOSITORY], env = process.env) {
  const found = {};
  for (const [name, { file }] of Object.entries(INPUTS)) {
    const value = env[name] ?? places.map((place) => path.resolve(place, file)).find((p) => existsSync(p));
    if (value !== undefined) found[name] = value;
  }
  return found;
}

const found = dataPaths();
/** The ATT&CK STIX bundle, or undefined when there is none. */
export const ATTACK_STIX_PATH = found.ATTACK_STIX_PATH;
/** The folder of SigmaHQ rules, or undefined when there is none. */
export const SIGMA_RULES_DIR = found.SIGMA_RULES_DIR;

/** Which data a run uses, one line per input, for the head of its log. */
export const describeDataPaths = (paths = found) =>
  Object.entries(INPUTS).map(([name, { without }]) =>
    paths[name] ? `${name}=${paths[name]}` : `${name} not set and not found: ${without}`,
  );

const shellQuote = (value) => `'${value.replaceAll("'", "'\\''")}'`;

if (process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href) {
  const places = [BESIDE_REPOSITORY];
  for (let i = 2; i < process.argv.length; i++) {
    if (process.argv[i] === '--beside' && process.argv[i + 1]) places.push(path.resolve(process.argv[++i]));
    else {
      console.error(`Usage: node scripts/data-paths.mjs [--beside DIR]…`);
      process.exit(2);
    }
  }
  for (const [name, value] of Object.entries(dataPaths(places)))
    console.log(`export ${name}=${shellQuote(value)}`);
}
