import assert from 'node:assert/strict';
import { test } from 'node:test';
import { prefersHtml } from '../../src/http/accept.ts';

test('HTML is preferred only when the Accept header ranks it above JSON', () => {
  const browser = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
  assert.equal(prefersHtml(browser), true);
  assert.equal(prefersHtml('text/*'), true);
  assert.equal(prefersHtml('application/json;q=0.5, text/html'), true);
  assert.equal(prefersHtml(undefined), false);
  assert.equal(prefersHtml(''), false);
  assert.equal(prefersHtml('*/*'), false);
  assert.equal(prefersHtml('application/json'), false);
  assert.equal(prefersHtml('text/html, application/json'), false, 'a tie goes to JSON');
  assert.equal(prefersHtml('text/html;q=0.4, */*'), false);
  assert.equal(prefersHtml('TEXT/HTML'), true);
  assert.equal(prefersHtml('text/html;q=0'), false);
});
