import { describe, expect, it } from 'vitest';
import { RcpTokenError } from './index';

describe('RcpTokenError: what a token endpoint said, made safe to show', () => {
  it('takes a secret out before blanking controls, so a secret holding one is still redacted', () => {
    // The attack: a server echoes the client secret, which holds a tab and a bidi override. Blanking
    // first turned it into "s3cr et  x", which no longer matched the secret, and it was shown.
    const secret = 's3cr\tet\u202ex';
    const error = new RcpTokenError({
      tokenEndpoint: 'http://127.0.0.1:1/token',
      grant: 'client_credentials',
      status: 401,
      error: 'invalid_client',
      errorDescription: `wrong secret ${secret}\nfor client notes`,
      secrets: [secret],
    });
    expect(error.errorDescription).toBe('wrong secret [redacted] for client notes');
    expect(error.message).not.toMatch(/s3cr/);
    const reason = new RcpTokenError({ tokenEndpoint: 'http://127.0.0.1:1/token', grant: 'refresh_token', reason: `echo ${secret}`, secrets: [secret] });
    expect(reason.message).not.toMatch(/s3cr/);
    expect(reason.message).toContain('[redacted]');
  });
});
