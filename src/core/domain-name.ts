/**
 * Second-level `.sol` domain names, as SNS registers them: "alice.sol", "café.sol", "🔥.sol".
 * SPEC counts 3–63 characters including ".sol"; the on-chain field also caps the UTF-8 bytes.
 */
import { MAX_DOMAIN_NAME_BYTES } from './program/auction-account.js';

export type DomainName = string & { readonly __brand: 'DomainName' };

export const DOMAIN_SUFFIX = '.sol';
export const MIN_DOMAIN_NAME_CHARS = 3;
export const MAX_DOMAIN_NAME_CHARS = 63;

export type DomainNameRule =
  | 'not_a_string'
  | 'too_short'
  | 'too_long'
  | 'too_many_bytes'
  | 'uppercase'
  | 'missing_sol_suffix'
  | 'empty_label'
  | 'subdomain'
  | 'whitespace'
  | 'invalid_character';

export type DomainNameValidation =
  | { readonly ok: true; readonly name: DomainName }
  | { readonly ok: false; readonly reason: DomainNameRule; readonly message: string };

export class DomainNameError extends TypeError {
  override readonly name = 'DomainNameError';
  constructor(
    readonly reason: DomainNameRule,
    message: string,
  ) {
    super(message);
  }
}

const ASCII_LABEL_CHAR = /^[a-z0-9_-]$/;
/** Non-ASCII letters, marks and digits (any script) and emoji, including their joiners and modifiers. */
const UNICODE_LABEL_CHAR = /^[\p{L}\p{M}\p{N}\p{Extended_Pictographic}\p{Emoji_Component}]$/u;
const WHITESPACE = /^[\p{White_Space}]$/u;

function isAllowedLabelChar(ch: string): boolean {
  if (ch.length === 1 && ch.charCodeAt(0) < 0x80) return ASCII_LABEL_CHAR.test(ch);
  return UNICODE_LABEL_CHAR.test(ch);
}

function describeChar(ch: string): string {
  const code = `U+${ch.codePointAt(0)!.toString(16).toUpperCase().padStart(4, '0')}`;
  return /^[\p{L}\p{N}\p{P}\p{S}]$/u.test(ch) ? `"${ch}" (${code})` : code;
}

const fail = (reason: DomainNameRule, message: string): DomainNameValidation => ({
  ok: false,
  reason,
  message,
});

/** Checks every rule and says which one failed, in words an API caller can act on. */
export function validateDomainName(input: unknown): DomainNameValidation {
  if (typeof input !== 'string') return fail('not_a_string', 'domain name must be a string');
  const chars = [...input];
  if (chars.length < MIN_DOMAIN_NAME_CHARS) {
    return fail(
      'too_short',
      `domain name must be ${MIN_DOMAIN_NAME_CHARS} to ${MAX_DOMAIN_NAME_CHARS} characters`,
    );
  }
  if (chars.length > MAX_DOMAIN_NAME_CHARS) {
    return fail(
      'too_long',
      `domain name must be ${MIN_DOMAIN_NAME_CHARS} to ${MAX_DOMAIN_NAME_CHARS} characters`,
    );
  }
  if (new TextEncoder().encode(input).length > MAX_DOMAIN_NAME_BYTES) {
    return fail('too_many_bytes', `domain name must be at most ${MAX_DOMAIN_NAME_BYTES} bytes in UTF-8`);
  }
  if (input !== input.toLowerCase()) return fail('uppercase', 'domain name must be lowercase');
  if (!input.endsWith(DOMAIN_SUFFIX)) return fail('missing_sol_suffix', 'domain name must end with .sol');
  const label = input.slice(0, -DOMAIN_SUFFIX.length);
  if (label.length === 0) return fail('empty_label', 'domain name must have a name before .sol');
  if (label.includes('.')) {
    return fail('subdomain', 'domain name must be a single label before .sol (no subdomains or extra dots)');
  }
  for (const ch of label) {
    if (WHITESPACE.test(ch)) return fail('whitespace', 'domain name must not contain whitespace');
    if (!isAllowedLabelChar(ch)) {
      return fail(
        'invalid_character',
        `domain name must contain only a-z, 0-9, "-", "_" or non-ASCII letters and emoji; ${describeChar(ch)} is not allowed`,
      );
    }
  }
  return { ok: true, name: input as DomainName };
}

export function isDomainName(value: unknown): value is DomainName {
  return validateDomainName(value).ok;
}

export function assertIsDomainName(value: unknown): asserts value is DomainName {
  const result = validateDomainName(value);
  if (!result.ok) throw new DomainNameError(result.reason, result.message);
}

export function domainName(value: string): DomainName {
  assertIsDomainName(value);
  return value;
}

/** "alice.sol" → "alice": the name SNS hashes to derive the name account. */
export function domainLabel(name: DomainName): string {
  return name.slice(0, -DOMAIN_SUFFIX.length);
}
