import { describe, expect, it } from 'vitest';
import { isConnectionError } from './error-handler.ts';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isConnectionError', () => {
  it('recognises a database that cannot be reached or went away', () => {
    for (const error of [
      withCode('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'),
      withCode('ECONNRESET', 'read ECONNRESET'),
      withCode('57P01', 'terminating connection due to administrator command'),
      withCode('57P02', 'terminating connection due to crash of another server process'),
      withCode('57P03', 'the database system is starting up'),
      withCode('08006', 'connection failure'),
      withCode('08P01', 'protocol violation'),
      new Error('Connection terminated unexpectedly'),
      new Error('Connection terminated due to connection timeout'),
      new Error('timeout exceeded when trying to connect'),
      // drizzle wraps the driver's error; a connect to several addresses fails with all of them
      Object.assign(new Error('Failed query: select 1'), { cause: withCode('57P01') }),
      new AggregateError([withCode('ECONNREFUSED'), withCode('ECONNREFUSED')], 'connect failed'),
    ]) {
      expect(isConnectionError(error), String(error)).toBe(true);
    }
  });

  it('leaves query errors and other failures alone', () => {
    for (const error of [
      withCode('23505', 'duplicate key value violates unique constraint'),
      withCode('42P01', 'relation "x" does not exist'),
      withCode('57014', 'canceling statement due to statement timeout'),
      new Error('Internal failure'),
      Object.assign(new Error('Failed query: insert'), { cause: withCode('23503') }),
      null,
      'ECONNREFUSED',
    ]) {
      expect(isConnectionError(error), String(error)).toBe(false);
    }
  });
});
