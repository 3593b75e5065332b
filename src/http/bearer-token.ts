/** The bearer token of a request, read only from the Authorization header (RFC 6750 §2.1). */
export function bearerToken(authorization: string | undefined): { token?: string; malformed?: boolean } {
  if (authorization === undefined) return {};
  const match = /^Bearer ([A-Za-z0-9\-._~+/]+=*)$/i.exec(authorization.trim());
  return match ? { token: match[1] } : { malformed: true };
}
