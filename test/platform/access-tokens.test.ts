// The access-token verifier remembers tokens it has verified (src/platform/security/jwt.ts): a
// hit must never outlive the token's expiry, never let a different token through, and never
// hand out claims a caller could change for the next request.
import { describe, expect, it } from 'vitest';
import { createAccessTokens } from '../../src/platform/security/jwt';

const SECRET = 's'.repeat(48);

function tokensAt(start: number) {
  let now = start;
  const tokens = createAccessTokens({ secret: SECRET, ttlSeconds: 60, now: () => new Date(now) });
  return { tokens, advance: (ms: number) => (now += ms) };
}

describe('access tokens', () => {
  const claims = { sub: 'user-1', sid: 'session-1', actor: 'customer' as const };

  it('a token verified before is refused once it expires, like a token seen for the first time', async () => {
    const { tokens, advance } = tokensAt(Date.UTC(2026, 10, 29, 12));
    const token = await tokens.sign(claims);
    expect(await tokens.verify(token)).toEqual(claims);
    advance(59_000);
    expect(await tokens.verify(token)).toEqual(claims);
    advance(1_000); // exp is now: jose refuses exp <= now
    expect(await tokens.verify(token)).toBeNull();
    expect(await tokens.verify(token)).toBeNull();
  });

  it('a remembered token does not vouch for one that differs from it in its signature', async () => {
    const { tokens } = tokensAt(Date.UTC(2026, 10, 29, 12));
    const token = await tokens.sign(claims);
    expect(await tokens.verify(token)).toEqual(claims);
    const last = token.at(-2) === 'A' ? 'B' : 'A';
    const tampered = `${token.slice(0, -2)}${last}${token.slice(-1)}`;
    expect(await tokens.verify(tampered)).toBeNull();
    const forged = await createAccessTokens({
      secret: 'x'.repeat(48),
      ttlSeconds: 60,
      now: () => new Date(Date.UTC(2026, 10, 29, 12)),
    }).sign(claims);
    expect(await tokens.verify(forged)).toBeNull();
  });

  it('each answer is its own object: changing one does not change the next', async () => {
    const { tokens } = tokensAt(Date.UTC(2026, 10, 29, 12));
    const token = await tokens.sign(claims);
    const first = await tokens.verify(token);
    first!.actor = 'admin';
    first!.sub = 'someone-else';
    expect(await tokens.verify(token)).toEqual(claims);
  });
});
