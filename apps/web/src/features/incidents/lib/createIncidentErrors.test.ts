import { describe, expect, it } from 'vitest';
import { ApiError } from '@/shared/api/index.ts';
import { attachmentProblems } from '@/shared/lib/attachments.ts';
import { mapCreateIncidentErrors, uploadErrorMessages } from './createIncidentErrors.ts';

describe('mapCreateIncidentErrors', () => {
  it('puts payload field messages on their form fields and the rest above the buttons', () => {
    expect(
      mapCreateIncidentErrors({
        system: ['Unknown system.'],
        summary: ['Too long.'],
        issuetype: ['Invalid.'],
        primary_category: ['Not of this issue type.'],
        secondary_category: ['Invalid pk "9".'],
        priority: ['"critical" is not a valid choice.'],
        description: ['This field may not be blank.'],
        non_field_errors: ['Try later.'],
        extra: ['Odd.'],
      }),
    ).toEqual({
      fields: [
        { name: 'system', errors: ['Unknown system.'] },
        { name: 'summary', errors: ['Too long.'] },
        { name: 'issueType', errors: ['Invalid.'] },
        { name: 'mainCategory', errors: ['Not of this issue type.'] },
        { name: 'additionalCategories', errors: ['Invalid pk "9".'] },
        { name: 'priority', errors: ['"critical" is not a valid choice.'] },
        { name: 'description', errors: ['This field may not be blank.'] },
      ],
      formErrors: ['Try later.', 'extra: Odd.'],
    });
  });
});

describe('uploadErrorMessages', () => {
  it('reads attachments messages, a detail, or nothing', () => {
    const http = (status: number, data: unknown) => new ApiError({ kind: 'http', status, data });
    expect(
      uploadErrorMessages(http(400, { attachments: ['a.exe: type not allowed', 'Too many files.'] })),
    ).toEqual(['a.exe: type not allowed', 'Too many files.']);
    expect(uploadErrorMessages(http(413, { detail: 'File too large.' }))).toEqual(['File too large.']);
    expect(uploadErrorMessages(http(500, null))).toEqual([]);
    expect(uploadErrorMessages(new ApiError({ kind: 'network' }))).toEqual([]);
  });
});

describe('attachmentProblems', () => {
  const file = (name: string, size: number) => {
    const result = new File(['x'], name);
    Object.defineProperty(result, 'size', { value: size });
    return result;
  };

  it('accepts up to 10 files of up to 50 MB each', () => {
    expect(attachmentProblems(Array.from({ length: 10 }, (_, i) => file(`f${i}`, 50 * 1024 * 1024)))).toEqual(
      [],
    );
  });

  it('reports names that no upload accepts, showing direction controls as codes', () => {
    expect(
      attachmentProblems([
        file('invoice.pdf.EXE. ', 10),
        file('photo\u202egpj.txt', 10),
        file('notes.txt', 10),
      ]),
    ).toEqual([
      { kind: 'unsafe-name', name: 'invoice.pdf.EXE. ', reason: 'extension', extension: 'exe' },
      { kind: 'unsafe-name', name: 'photo[U+202E]gpj.txt', reason: 'bidi', extension: '' },
    ]);
  });

  it('reports too many files and each file that is too large', () => {
    const files = [
      ...Array.from({ length: 10 }, (_, i) => file(`f${i}`, 10)),
      file('big.zip', 50 * 1024 * 1024 + 1),
    ];
    expect(attachmentProblems(files)).toEqual([
      { kind: 'too-many', max: 10 },
      { kind: 'too-large', name: 'big.zip', maxMb: 50 },
    ]);
  });
});
