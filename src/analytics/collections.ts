/**
 * Collections: named families of `.sol` labels, each defined by one rule on the label (the name
 * without ".sol"). An auction belongs to the collection of its first domain, if any rule matches.
 */
export interface Collection {
  readonly slug: string;
  readonly name: string;
  readonly matches: (label: string) => boolean;
}

const pattern = (re: RegExp) => (label: string) => re.test(label);

// One or more emoji (with their modifiers, joiners and variation selectors), nothing else.
const EMOJI_ONLY =
  /^(?:\p{Extended_Pictographic}|\p{Emoji_Presentation}|\p{Emoji_Modifier}|\u200d|\ufe0f|\p{Regional_Indicator})+$/u;
const HAS_PICTOGRAPH = /\p{Extended_Pictographic}|\p{Regional_Indicator}/u;

export const COLLECTIONS: readonly Collection[] = [
  { slug: '3-digit', name: '3-digit numbers (000–999)', matches: pattern(/^\d{3}$/) },
  { slug: '4-digit', name: '4-digit numbers (0000–9999)', matches: pattern(/^\d{4}$/) },
  { slug: '5-digit', name: '5-digit numbers (00000–99999)', matches: pattern(/^\d{5}$/) },
  { slug: '3-letter', name: '3-letter names (aaa–zzz)', matches: pattern(/^[a-z]{3}$/) },
  { slug: '4-letter', name: '4-letter names (aaaa–zzzz)', matches: pattern(/^[a-z]{4}$/) },
  {
    slug: 'emoji',
    name: 'Emoji names',
    matches: (label) => EMOJI_ONLY.test(label) && HAS_PICTOGRAPH.test(label),
  },
];

/** The collection of a domain ("123.sol" or "123"), or null when no rule matches. */
export function collectionOf(domain: string): Collection | null {
  const label = domain.endsWith('.sol') ? domain.slice(0, -'.sol'.length) : domain;
  return COLLECTIONS.find((c) => c.matches(label)) ?? null;
}
