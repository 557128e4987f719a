import { describe, expect, it } from 'vitest';
import { markdownToLines, renderMarkdown, renderTypedMarkdown } from './markdown.ts';

describe('renderTypedMarkdown (text typed into a comment composer)', () => {
  it('shows typed HTML as the text that was typed', () => {
    expect(renderTypedMarkdown('<b>x</b>')).toBe('<p>&lt;b&gt;x&lt;/b&gt;</p>');
    expect(renderTypedMarkdown('<div>\nblock\n</div>')).toBe(
      '<p>&lt;div&gt;<br />block<br />&lt;/div&gt;</p>',
    );
    // an analyst's document body keeps its HTML
    expect(renderMarkdown('<b>x</b>')).toBe('<p><b>x</b></p>');
  });

  it('still formats Markdown: emphasis, code, links, autolinks, portal images', () => {
    expect(renderTypedMarkdown('**bold** `<i>c</i>` <https://example.org>')).toBe(
      '<p><strong>bold</strong> <code>&lt;i&gt;c&lt;/i&gt;</code> ' +
        '<a href="https://example.org" rel="noopener noreferrer nofollow" target="_blank">https://example.org</a></p>',
    );
    expect(renderTypedMarkdown('![plan](/api/v0/soc/files/x.png)')).toBe(
      '<p><img src="/api/v0/soc/files/x.png" alt="plan" /></p>',
    );
  });

  it('keeps the sanitiser: no javascript: links, no remote images', () => {
    const html = renderTypedMarkdown('[a](javascript:alert(1)) ![p](https://tracker.example/p.png)');
    expect(html).not.toMatch(/javascript:|tracker\.example/);
  });
});

describe('markdownToLines', () => {
  it('puts each paragraph, heading, list item and table row on its own line', () => {
    const markdown = [
      '# Steps',
      '',
      'Isolate the host\nfrom the **network**.',
      '',
      '- collect <i>memory</i>',
      '- collect [logs](https://example.org)',
      '  - nested',
      '',
      '3. third',
      '4. fourth',
      '',
      '> quoted',
      '',
      '| a | b |\n|---|---|\n| 1 | 2 |',
    ].join('\n');
    expect(markdownToLines(markdown).split('\n')).toEqual([
      'Steps',
      'Isolate the host from the network.',
      '• collect memory',
      '• collect logs',
      '• nested',
      '3. third',
      '4. fourth',
      'quoted',
      'a | b',
      '1 | 2',
    ]);
  });

  it('decodes entities and drops images and HTML tags', () => {
    expect(markdownToLines('Fish &amp; chips < 5 ![x](/a.png)\n\n<p>raw <b>html</b></p>')).toBe(
      'Fish & chips < 5\nraw html',
    );
  });
});
