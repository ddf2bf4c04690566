export { type BackendSetup, startEmbedded } from './embedded.js';
export { GatewayError, type GatewayErrorCode } from './errors.js';
export { FLAGS, type FlagSpec, type FlagType, helpText, parseFlags } from './flags.js';
export { type Gateway, isLoopback, type StartContext, startGateway } from './gateway.js';
export type { GatewayHttp2Server } from './http2.js';
export {
  type Command,
  EXAMPLE_MODULES,
  type GatewayOptions,
  type NetconfUrl,
  optionsFromArgs,
  parseNetconfUrl,
  SAMPLE_DATA,
} from './options.js';
export { startRemote } from './remote.js';
