import { createHash } from 'node:crypto';

/** Prefix the SPL name service hashes in front of every name (`HASH_PREFIX` in the program's state.rs). */
export const SNS_HASH_PREFIX = 'SPL Name Service';
export const SOL_SUFFIX = '.sol';
/** A DNS label is at most 63 bytes; SNS labels we accept follow the same bound. */
export const MAX_SOL_LABEL_BYTES = 63;

/** `sha256("SPL Name Service" + name)`, Bonfida's `getHashedNameSync`. */
export function hashedName(name: string): Uint8Array {
  return new Uint8Array(
    createHash('sha256')
      .update(SNS_HASH_PREFIX + name, 'utf8')
      .digest(),
  );
}

export class InvalidDomainNameError extends Error {
  override readonly name = 'InvalidDomainNameError';
}

/**
 * The label of a second-level `.sol` domain: `"alice.sol"` or `"alice"` → `"alice"`.
 * This is the *derivation* rule (any name SNS can hold, so existing mainnet names resolve); what
 * may be *listed* in an auction is the stricter rule in `core/domain-name.ts`.
 * Rejects what the SNS registrar refuses to register: empty names, subdomains (dots), upper case,
 * whitespace and control characters, and labels longer than 63 bytes.
 */
export function solDomainLabel(domain: string): string {
  const label = domain.endsWith(SOL_SUFFIX) ? domain.slice(0, -SOL_SUFFIX.length) : domain;
  if (label.length === 0) throw new InvalidDomainNameError('domain name is empty');
  if (label.includes('.')) throw new InvalidDomainNameError(`"${domain}" is not a second-level .sol domain`);
  if (/[\s\p{Cc}]/u.test(label)) {
    throw new InvalidDomainNameError(`"${domain}" contains whitespace or control characters`);
  }
  if (label !== label.toLowerCase()) throw new InvalidDomainNameError(`"${domain}" must be lower case`);
  if (new TextEncoder().encode(label).length > MAX_SOL_LABEL_BYTES) {
    throw new InvalidDomainNameError(`"${domain}" is longer than ${MAX_SOL_LABEL_BYTES} bytes`);
  }
  return label;
}
