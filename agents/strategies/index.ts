/** Every built-in strategy by name: the runner, the CLI and the backtest look strategies up here. */
import type { StrategyDefinition } from '../strategy.js';
import { buyNowUnder } from './buy-now-under.js';
import { dutchStop } from './dutch-stop.js';
import { group } from './group.js';
import { lateProxy } from './late-proxy.js';
import { proxyMax } from './proxy-max.js';

export type AnyStrategy = StrategyDefinition;

export const BUILTIN_STRATEGIES: ReadonlyMap<string, AnyStrategy> = new Map(
  [dutchStop, buyNowUnder, proxyMax, lateProxy, group].map((s) => [s.name, s as unknown as AnyStrategy]),
);

export { buyNowUnder, dutchStop, group, lateProxy, proxyMax };
