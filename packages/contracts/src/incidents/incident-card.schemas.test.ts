import { describe, expect, it } from 'vitest';
import {
  AssignPayloadSchema,
  ClosePayloadSchema,
  CommentCreateFieldsSchema,
  ConfirmPayloadSchema,
  RatingPayloadSchema,
  UsersQuerySchema,
} from '../index.ts';

const fields = (result: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) =>
  result.success ? [] : result.error!.issues.map((i) => String(i.path[0]));

describe('workflow payloads', () => {
  it('close needs a comment and a resolution; the assign-to-myself box is optional', () => {
    expect(fields(ClosePayloadSchema.safeParse({}))).toEqual(['comment', 'resolution_name']);
    expect(ClosePayloadSchema.parse({ comment: ' ok ', resolution_name: 3 })).toEqual({
      comment: 'ok',
      resolution_name: 3,
      change_customer_assignee: false,
    });
  });

  it('confirm refuses a blank comment and unknown fields', () => {
    expect(fields(ConfirmPayloadSchema.safeParse({ comment: '   ' }))).toEqual(['comment']);
    expect(ConfirmPayloadSchema.safeParse({ comment: 'x', extra: 1 }).success).toBe(false);
  });

  it('assign takes a user id or null', () => {
    expect(AssignPayloadSchema.parse({ customer_assignee_id: null })).toEqual({ customer_assignee_id: null });
    expect(AssignPayloadSchema.safeParse({ customer_assignee_id: 'me' }).success).toBe(false);
  });
});

describe('rating and comments', () => {
  it('rating is an integer from 0 to 5', () => {
    for (const ok of [0, 5]) expect(RatingPayloadSchema.safeParse({ rating: ok }).success).toBe(true);
    for (const bad of [-1, 6, 2.5, '4'])
      expect(RatingPayloadSchema.safeParse({ rating: bad }).success).toBe(false);
  });

  it('comment form fields: text required, issue_completed as a form boolean', () => {
    expect(CommentCreateFieldsSchema.parse({ body: 'hi', issue_completed: 'true' })).toEqual({
      body: 'hi',
      issue_completed: true,
    });
    expect(fields(CommentCreateFieldsSchema.safeParse({ body: '' }))).toEqual(['body']);
  });

  it('users suggestions trim the search and parse system lists', () => {
    expect(UsersQuerySchema.parse({ search: '  ali ', system__in: '1,2', is_active: 'true' })).toMatchObject({
      search: 'ali',
      system__in: [1, 2],
      is_active: true,
      page_size: 10,
    });
  });
});
