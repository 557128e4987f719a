import { z } from 'zod';

/** DRF's text for a missing field, used by every schema (spec 000 §5 generic required message). */
export const REQUIRED_MESSAGE = 'This field is required.';

// A missing value reads as "required" rather than zod's "expected string, received undefined".
z.config({
  customError: (issue) =>
    issue.code === 'invalid_type' && issue.input === undefined ? REQUIRED_MESSAGE : undefined,
});
