import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { HttpError } from '../../lib/http-errors.ts';
import { inLanguage } from '../../lib/messages.ts';
import { DANGEROUS_UPLOAD_EXTENSIONS, unsafeUploadName } from '@soc/contracts';
import { checkUpload } from './sniff.ts';

const TEXT = Buffer.from('plain text, nothing to run\n');
const BIDI = ['\u202a', '\u202b', '\u202c', '\u202d', '\u202e', '\u2066', '\u2067', '\u2068', '\u2069'];

/** Any mix of upper and lower case of `text`. */
const anyCase = (text: string) =>
  fc
    .array(fc.boolean(), { minLength: text.length, maxLength: text.length })
    .map((upper) => [...text].map((c, i) => (upper[i] ? c.toUpperCase() : c)).join(''));
const stem = fc.stringMatching(/^[\p{L}\p{N} _()-]{1,30}$/u).filter((s) => s.trim().length > 0);
const innocentExtension = fc.constantFrom('pdf', 'docx', 'txt', 'png', 'csv', 'zip', 'log', 'jpeg');
const dangerous = fc.constantFrom(...DANGEROUS_UPLOAD_EXTENSIONS);
/** What Windows drops at the end of a name. */
const trailing = fc.stringMatching(/^[. ]{0,4}$/);

/** The refusal's message under `attachments` in `lang`, as the error handler sends it. */
const said = (error: HttpError | null, lang: 'ru' | 'en') =>
  (inLanguage(error?.fields, lang) as Record<string, string[]> | undefined)?.attachments?.[0];

const refusal = (name: string, head = TEXT): HttpError | null => {
  try {
    checkUpload('attachments', name, head);
    return null;
  } catch (err) {
    if (err instanceof HttpError) return err;
    throw err;
  }
};

describe('the upload check', () => {
  it('refuses every dangerous extension in any case, after any other extensions and trailing dots or spaces', () => {
    fc.assert(
      fc.property(
        stem,
        fc.array(innocentExtension, { maxLength: 2 }),
        dangerous.chain((ext) => anyCase(ext)),
        trailing,
        (base, before, ext, tail) => {
          const name = [base, ...before, ext].join('.') + tail;
          const error = refusal(name);
          expect(error, name).not.toBeNull();
          expect(error!.statusCode).toBe(400);
          expect(said(error, 'en')).toContain(name);
          expect(said(error, 'ru')).toContain(name);
        },
      ),
    );
  });

  it('accepts text files whose dangerous extension is not the last one', () => {
    fc.assert(
      fc.property(stem, dangerous, innocentExtension, (base, ext, last) => {
        expect(refusal(`${base}.${ext}.${last}`)).toBeNull();
      }),
    );
  });

  it('refuses a name with any bidirectional control character anywhere, and shows it as a code', () => {
    fc.assert(
      fc.property(stem, fc.constantFrom(...BIDI), fc.nat(40), innocentExtension, (base, control, at, ext) => {
        const plain = `${base}.${ext}`;
        const i = at % (plain.length + 1);
        const name = plain.slice(0, i) + control + plain.slice(i);
        const error = refusal(name);
        expect(error, JSON.stringify(name)).not.toBeNull();
        const message = said(error, 'en');
        expect(message).not.toMatch(/[\u202a-\u202e\u2066-\u2069]/);
        expect(message).toContain(`[U+${control.charCodeAt(0).toString(16).toUpperCase()}]`);
      }),
    );
  });

  it('still refuses executable content under an innocent name', () => {
    const error = refusal('invoice.pdf', Buffer.concat([Buffer.from('MZ'), Buffer.alloc(100, 0x90)]));
    expect(said(error, 'en')).toBe(
      '"invoice.pdf" is an executable file; pack it into a password-protected archive.',
    );
    expect(said(error, 'ru')).toBe('«invoice.pdf» — исполняемый файл; упакуйте его в архив с паролем.');
  });

  it('names the right reason', () => {
    expect(unsafeUploadName('setup.EXE. ')).toEqual({ reason: 'extension', extension: 'exe' });
    expect(unsafeUploadName('photo\u202egpj.js')).toEqual({ reason: 'bidi' });
    expect(unsafeUploadName('exe')).toBeNull();
    expect(unsafeUploadName('report.pdf')).toBeNull();
    expect(checkUpload('file', 'report.txt', TEXT)).toBe('text/plain; charset=utf-8');
    expect(refusal('.exe')).toBeInstanceOf(HttpError);
  });
});
