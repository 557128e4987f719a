import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import PDFDocument from 'pdfkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerPdfFonts } from './pdf-fonts.ts';
import { markdownImageSources, writeMarkdown } from './pdf-markdown.ts';

const run = promisify(execFile);
let dir: string;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'soc-pdf-markdown-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** A PDF of `markdown` alone, read back by poppler: its layout text, fonts and link targets. */
async function render(markdown: string) {
  const doc = new PDFDocument({ size: 'A4', margin: 50 });
  registerPdfFonts(doc);
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const ended = new Promise((resolve) => doc.on('end', resolve));
  writeMarkdown(doc, markdown, { x: 50, width: 495 });
  doc.end();
  await ended;
  const pdf = Buffer.concat(chunks);
  const file = path.join(dir, `${Math.random().toString(36).slice(2)}.pdf`);
  await writeFile(file, pdf);
  const tool = async (name: string, args: string[]) => {
    try {
      return (await run(name, args)).stdout;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') {
        throw new Error(`${name} is missing: install poppler-utils (apt-get install -y poppler-utils)`);
      }
      throw err;
    }
  };
  const text = await tool('pdftotext', ['-enc', 'UTF-8', '-layout', file, '-']);
  const fonts = await tool('pdffonts', [file]);
  // link annotations are stored as plain dictionaries: /URI (target)
  const links = [...pdf.toString('latin1').matchAll(/\/URI \(([^)]*)\)/g)].map((m) => m[1]);
  return { text, lines: text.split('\n').map((l) => l.trimEnd()), fonts, links };
}

const BODY = `# Containment plan

Isolate the host **at once**, then *tell the owner*. See [the runbook](https://soc.example/runbook) and run \`netstat -an\`.

## Steps

1. Disconnect the network cable
2. Collect the memory image
   - with **WinPMEM** on Windows
   - with LiME on Linux
3. Reset the passwords

- [x] ticket opened
- [ ] owner told

\`\`\`
Get-Process | Where-Object CPU -gt 100
  indented line
\`\`\`

| Host | Address | State |
| --- | --- | --- |
| web-01 | 10.0.0.5 | isolated |
| db-02 | 10.0.0.9 | clean |

> Do not power the host off.

Plain &amp; simple, Cyrillic too: Изолируйте узел.`;

describe('writeMarkdown', () => {
  it('keeps headings on their own lines, numbers and bullets of nested lists, code and tables', async () => {
    const { lines, text } = await render(BODY);
    const line = (re: RegExp) => lines.find((l) => re.test(l));
    // headings are lines of their own, without Markdown marks
    expect(line(/Containment plan/)!.trim()).toBe('Containment plan');
    expect(line(/Steps/)!.trim()).toBe('Steps');
    expect(text).not.toMatch(/[#*`|]{1}\s*(Containment|Steps|at once)/);
    // numbered items keep their numbers, nested ones their bullets, indented under their item
    expect(line(/Disconnect/)).toMatch(/^\s*1\.\s+Disconnect the network cable$/);
    expect(line(/Collect/)).toMatch(/^\s*2\.\s+Collect the memory image$/);
    expect(line(/Reset/)).toMatch(/^\s*3\.\s+Reset the passwords$/);
    const nested = line(/WinPMEM/)!;
    expect(nested).toMatch(/^\s*◦\s+with WinPMEM on Windows$/);
    expect(nested.indexOf('◦')).toBeGreaterThan(line(/Collect/)!.indexOf('2.'));
    expect(line(/LiME/)).toMatch(/^\s*◦\s+with LiME on Linux$/);
    expect(line(/ticket opened/)).toMatch(/^\s*☑\s+ticket opened$/);
    expect(line(/owner told/)).toMatch(/^\s*☐\s+owner told$/);
    // inline formatting leaves the words in one line, the link text included
    expect(text).toMatch(
      /Isolate the host at once, then tell the owner\. See the runbook and run netstat -an\./,
    );
    // a code block keeps its lines and their indentation
    expect(line(/Get-Process/)!.trim()).toBe('Get-Process | Where-Object CPU -gt 100');
    expect(line(/indented line/)!.indexOf('indented')).toBeGreaterThan(line(/Get-Process/)!.indexOf('Get'));
    // a table's cells stay in their rows and columns
    expect(line(/Host/)).toMatch(/^\s*Host\s+Address\s+State$/);
    expect(line(/web-01/)).toMatch(/^\s*web-01\s+10\.0\.0\.5\s+isolated$/);
    expect(line(/db-02/)).toMatch(/^\s*db-02\s+10\.0\.0\.9\s+clean$/);
    expect(line(/web-01/)!.indexOf('10.0.0.5')).toBe(line(/Host/)!.indexOf('Address'));
    expect(text).toContain('Do not power the host off.');
    expect(text).toContain('Plain & simple, Cyrillic too: Изолируйте узел.');
  });

  it('sets bold, italic and code in their own faces and makes links clickable', async () => {
    const { fonts, links } = await render(BODY);
    expect(fonts).toMatch(/DejaVuSans-Bold\b/);
    expect(fonts).toMatch(/DejaVuSans-Oblique\b/);
    expect(fonts).toMatch(/DejaVuSansMono\b/);
    expect(links).toEqual(['https://soc.example/runbook']);
    // no bold face where nothing is bold
    expect((await render('plain *words*')).fonts).not.toMatch(/DejaVuSans-Bold\b/);
  });

  it('links only http, https and mailto, and numbers a list from its start', async () => {
    const { links, lines } = await render(
      '[mail](mailto:soc@example.com) [bad](javascript:alert(1)) [rel](/api/v0/x)\n\n7. seventh\n8. eighth',
    );
    expect(links).toEqual(['mailto:soc@example.com']);
    expect(lines.find((l) => l.includes('seventh'))).toMatch(/^\s*7\.\s+seventh$/);
    expect(lines.find((l) => l.includes('eighth'))).toMatch(/^\s*8\.\s+eighth$/);
  });

  it('lists the image sources to read beforehand and names an image it cannot show', async () => {
    expect(
      markdownImageSources(
        '![a](/x.png)\n\n- ![b](/y.png)\n\n| c |\n| - |\n| ![c](/x.png) |\n\n<p>raw <img src="/z.png" alt="z"></p>',
      ),
    ).toEqual(['/x.png', '/y.png', '/z.png']);
    expect((await render('Before\n\n![scheme](/missing.png)\n\nAfter')).text).toMatch(
      /Before\s+\[scheme\]\s+After/,
    );
    expect((await render('<div>Raw <b>HTML</b> <img src="/gone.png" alt="map"> end</div>')).text).toMatch(
      /Raw HTML\s+\[map\]\s+end/,
    );
  });
});
