export { type Localnet, type LocalnetOptions, type LocalnetTime, startLocalnet } from './localnet.js';
