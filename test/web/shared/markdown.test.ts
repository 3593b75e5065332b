import assert from 'node:assert/strict';
import { test } from 'node:test';
import { markdownHtml } from '../../../src/web/shared/markdown.ts';

test('bodies are Markdown: emphasis, lists and links; raw HTML is shown as text; javascript: links are refused', () => {
  const out = markdownHtml(
    '# Clay\n\n**Wedge** it well.\nThen centre.\n\n- one\n- two\n\n[kiln](https://kiln.example)',
  ).value;
  assert.match(out, /<h1>Clay<\/h1>/);
  assert.match(out, /<strong>Wedge<\/strong> it well\.<br>\nThen centre\./, 'a single line break is kept');
  assert.match(out, /<li>one<\/li>/);
  assert.match(out, /<a href="https:\/\/kiln\.example" rel="nofollow noopener">kiln<\/a>/);
  const hostile = markdownHtml('<script>alert(1)</script> [x](javascript:alert(1)) <img src=x onerror=alert(1)>').value;
  assert.doesNotMatch(hostile, /<script|<img|href="javascript/);
  assert.match(hostile, /&lt;script&gt;/);
});
