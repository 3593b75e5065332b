/**
 * The one byte range a `Range` header asks for in a file of `size` bytes (RFC 9110 §14): `bytes=a-b`, `bytes=a-`,
 * `bytes=-n` (the last n bytes). Undefined when there is no header or it is not one such range (a malformed or
 * multi-range header is ignored and the whole file sent, as the RFC allows); 'unsatisfiable' when it starts past
 * the end.
 */
export function requestedRange(
  header: string | undefined,
  size: number,
): { start: number; end: number } | 'unsatisfiable' | undefined {
  const match = header && /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return undefined;
  const [, first = '', last = ''] = match;
  if (first === '') {
    if (last === '') return undefined;
    const suffix = Number(last);
    if (suffix === 0 || size === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  if (start >= size) return 'unsatisfiable';
  const end = last === '' ? size - 1 : Math.min(Number(last), size - 1);
  return end < start ? undefined : { start, end };
}
