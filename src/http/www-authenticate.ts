/**
 * RFC 6750 §3 challenge, pointing at the Protected Resource Metadata (RFC 9728 §5.1). A request that carried no token
 * gets no error code (RFC 6750 §3.1), only where to find the authorization server and the scope it needs.
 */
export function bearerChallenge(params: {
  error?: 'invalid_token' | 'insufficient_scope' | 'invalid_request';
  description?: string;
  scope?: string;
  resourceMetadata: string;
}): string {
  const quote = (value: string) => `"${value.replace(/["\\]/g, '')}"`;
  const parts: string[] = [];
  if (params.error) parts.push(`error=${quote(params.error)}`);
  if (params.description) parts.push(`error_description=${quote(params.description)}`);
  if (params.scope) parts.push(`scope=${quote(params.scope)}`);
  parts.push(`resource_metadata=${quote(params.resourceMetadata)}`);
  return `Bearer ${parts.join(', ')}`;
}
