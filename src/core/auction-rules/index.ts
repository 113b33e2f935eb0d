export * from './bid-check.js';
export * from './create-rules.js';
export * from './dutch-price.js';
export * from './minimum-bid.js';
export * from './settlement.js';
export * from './snipe.js';
export * from './status.js';
