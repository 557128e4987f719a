import { z } from 'zod';

/** DRF's text for a missing field, used by every schema (product §A5 generic required message). */
export const REQUIRED_MESSAGE = 'This field is required.';

z.config({
  // A missing value reads as "required" rather than zod's "expected string, received undefined".
  customError: (issue) =>
    issue.code === 'invalid_type' && issue.input === undefined ? REQUIRED_MESSAGE : undefined,
  // zod compiles object parsers with `new Function` where it may, and probes whether it may with
  // `new Function('')` as the first object schema is built. The portal's CSP forbids eval, so in
  // the browser that probe was refused and reported as a violation on every page (issue 25,
  // item 17). The browser parses without compiling; the server keeps the faster compiled parsers.
  // Set here, in the module that runs right after zod's own, before any schema is built: a
  // setting in the web app's entry would run after the shared chunk that builds the schemas.
  jitless: 'document' in globalThis,
});
