/** The quality a request's `Accept` header gives one media type: that of the most specific range matching it. */
function quality(accept: string, type: string): number {
  const [major] = type.split('/');
  let best = { specificity: -1, q: 0 };
  for (const part of accept.split(',')) {
    const [range = '', ...params] = part.split(';').map((p) => p.trim().toLowerCase());
    const specificity = range === type ? 2 : range === `${major}/*` ? 1 : range === '*/*' ? 0 : -1;
    if (specificity <= best.specificity) continue;
    const qParam = params.find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    best = { specificity, q: Number.isFinite(q) ? q : 0 };
  }
  return best.q;
}

/**
 * Whether the caller would rather have HTML than JSON: a browser navigation names text/html; an API client names JSON,
 * accepts any type, or sends no Accept header. A tie goes to JSON, the API's language.
 */
export function prefersHtml(accept: string | undefined): boolean {
  return prefersOverJson(accept, 'text/html');
}

/** Whether the caller would rather have `type` (text/csv, say) than JSON; a tie, or no Accept header, is JSON. */
export function prefersOverJson(accept: string | undefined, type: string): boolean {
  if (!accept) return false;
  return quality(accept, type) > quality(accept, 'application/json');
}
