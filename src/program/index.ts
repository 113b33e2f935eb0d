export {
  checkAuctionPrices,
  checkAuctionSchedule,
  checkSnipeExtension,
  MAX_DURATION_SECONDS,
  MAX_SNIPE_EXTENSION_SECONDS,
  MAX_START_DELAY_SECONDS,
  MIN_DURATION_SECONDS,
} from '../core/auction-rules/create-rules.js';
export { auctionProgram } from './entrypoint.js';
