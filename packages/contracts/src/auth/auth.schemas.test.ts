import { describe, expect, it } from 'vitest';
import { PasswordChangeRequestSchema, TokenObtainRequestSchema } from '../index.ts';

const messages = (input: unknown) => {
  const result = PasswordChangeRequestSchema.safeParse(input);
  return result.success ? [] : result.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
};

describe('PasswordChangeRequestSchema', () => {
  it('accepts a valid change', () => {
    expect(messages({ old_password: 'x', password: 'abcdefgh1', confirmed_password: 'abcdefgh1' })).toEqual(
      [],
    );
  });
  it('needs 9 characters', () => {
    expect(messages({ old_password: 'x', password: 'abcdefg1', confirmed_password: 'abcdefg1' })).toEqual([
      'password: Minimum password length is 9',
    ]);
  });
  it('refuses an entirely numeric password', () => {
    expect(messages({ old_password: 'x', password: '123456789', confirmed_password: '123456789' })).toEqual([
      'password: Password should be not entirely numeric',
    ]);
  });
  it('accepts digits with a non-word character', () => {
    expect(messages({ old_password: 'x', password: '12345678-', confirmed_password: '12345678-' })).toEqual(
      [],
    );
  });
  it('needs the confirmation to match', () => {
    expect(messages({ old_password: 'x', password: 'abcdefgh1', confirmed_password: 'abcdefgh2' })).toEqual([
      'confirmed_password: Must match',
    ]);
  });
  it('says which fields are missing', () => {
    expect(messages({})).toEqual([
      'old_password: This field is required',
      'password: This field is required',
      'confirmed_password: This field is required',
    ]);
  });
});

describe('TokenObtainRequestSchema', () => {
  it('requires both fields and refuses empty strings', () => {
    expect(TokenObtainRequestSchema.safeParse({ username: '', password: 'x' }).success).toBe(false);
    expect(TokenObtainRequestSchema.safeParse({ username: 'a', password: 'x' }).success).toBe(true);
  });
});
