import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  assertIsDomainName,
  DomainNameError,
  type DomainNameRule,
  domainLabel,
  domainName,
  isDomainName,
  validateDomainName,
} from '../../../src/core/domain-name.js';

const ruleOf = (input: unknown) => {
  const result = validateDomainName(input);
  return result.ok ? 'ok' : result.reason;
};

describe('validateDomainName', () => {
  it.each([
    'a.sol',
    'alice.sol',
    'my-domain_1.sol',
    '123.sol',
    '-_-.sol',
    'café.sol',
    'ñandú.sol',
    '日本.sol',
    'кошка.sol',
    '🔥.sol',
    '👍🏽.sol',
    '👨‍👩‍👧.sol',
    '❤️.sol',
    `${'x'.repeat(59)}.sol`,
  ])('accepts %s', (name) => {
    expect(ruleOf(name)).toBe('ok');
  });

  it.each<[unknown, DomainNameRule]>([
    [42, 'not_a_string'],
    [null, 'not_a_string'],
    ['', 'too_short'],
    ['so', 'too_short'],
    [`${'x'.repeat(60)}.sol`, 'too_long'],
    [`${'é'.repeat(30)}.sol`, 'too_many_bytes'],
    [`${'🔥'.repeat(16)}.sol`, 'too_many_bytes'],
    ['Alice.sol', 'uppercase'],
    ['alice.SOL', 'uppercase'],
    ['ÉCOLE.sol', 'uppercase'],
    ['alice', 'missing_sol_suffix'],
    ['alice.com', 'missing_sol_suffix'],
    ['alice.sol.', 'missing_sol_suffix'],
    ['.sol', 'empty_label'],
    ['a.b.sol', 'subdomain'],
    ['alice..sol', 'subdomain'],
    ['al ice.sol', 'whitespace'],
    ['\talice.sol', 'whitespace'],
    ['al\u00a0ice.sol', 'whitespace'],
    ['al\u0000ice.sol', 'invalid_character'],
    ['al\u007fice.sol', 'invalid_character'],
    ['al\u200bice.sol', 'invalid_character'],
    ['al\u3002ice.sol', 'invalid_character'],
    ['al€ice.sol', 'invalid_character'],
  ])('rejects %j (%s)', (input, rule) => {
    expect(ruleOf(input)).toBe(rule);
  });

  it.each([...'/\\@#%?&*+=,;:\'"<>|!$()[]{}~`^'])('rejects the character %s', (ch) => {
    const result = validateDomainName(`al${ch}ice.sol`);
    expect(result).toMatchObject({ ok: false, reason: 'invalid_character' });
    expect(result.ok || result.message).toContain(`"${ch}"`);
  });

  it('names the rule in its message', () => {
    const messageOf = (input: string) => {
      const result = validateDomainName(input);
      return result.ok ? '' : result.message;
    };
    expect(messageOf('alice.com')).toBe('domain name must end with .sol');
    expect(messageOf('so')).toBe('domain name must be 3 to 63 characters');
    expect(messageOf('Alice.sol')).toBe('domain name must be lowercase');
    expect(messageOf('a.b.sol')).toMatch(/single label/);
  });

  it('accepts every label of a-z, 0-9, "-" and "_" that fits', () => {
    const label = fc.string({
      unit: fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz0123456789-_'),
      minLength: 1,
      maxLength: 59,
    });
    fc.assert(
      fc.property(label, (l) => {
        const result = validateDomainName(`${l}.sol`);
        expect(result.ok).toBe(true);
        if (result.ok) expect(domainLabel(result.name)).toBe(l);
      }),
    );
  });

  it('rejects every other printable ASCII character anywhere in the label', () => {
    const forbidden = [...Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i))].filter(
      (ch) => !/[a-z0-9_-]/.test(ch),
    );
    fc.assert(
      fc.property(fc.constantFrom(...forbidden), fc.nat(5), (ch, at) => {
        const label = 'alice'.slice(0, at) + ch + 'alice'.slice(at);
        expect(isDomainName(`${label}.sol`)).toBe(false);
      }),
    );
  });
});

describe('the is / assert / coerce trio', () => {
  it('brands valid names and throws DomainNameError with the rule otherwise', () => {
    expect(isDomainName('alice.sol')).toBe(true);
    expect(isDomainName('alice')).toBe(false);
    expect(domainName('alice.sol')).toBe('alice.sol');
    expect(() => assertIsDomainName('Alice.sol')).toThrow(DomainNameError);
    try {
      domainName('alice');
      expect.unreachable();
    } catch (e) {
      expect(e).toMatchObject({ reason: 'missing_sol_suffix', message: 'domain name must end with .sol' });
    }
  });

  it('gives the label SNS hashes', () => {
    expect(domainLabel(domainName('alice.sol'))).toBe('alice');
    expect(domainLabel(domainName('🔥.sol'))).toBe('🔥');
  });
});
