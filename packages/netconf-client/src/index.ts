// The XML layer of @yangkit/xml, exported here under the names it had before it had a package:
// `parseXml` reads one document, `XmlNode` is a child of an element (an element or its text).
export {
  childElement,
  childElements,
  escapeXmlAttribute,
  escapeXmlText,
  innerXml,
  outerXml,
  readXmlDocument as parseXml,
  textOf,
  type XmlAttribute,
  type XmlChild as XmlNode,
  type XmlElement,
  type XmlLimits,
} from '@yangkit/xml';
export {
  BASE_1_0,
  BASE_1_1,
  type Capabilities,
  type ModuleCapability,
  parseCapabilities,
} from './capabilities.js';
export { connectStream, NetconfSession } from './client.js';
export { attachFramer, duplexPair, sendMessage } from './duplex-pair.js';
export { NetconfError, type NetconfErrorCode, NetconfRpcError, type RpcErrorInfo } from './errors.js';
export {
  createFramer,
  encodeMessage,
  encodeMessagePiece,
  type Framer,
  type FramerOptions,
  type FramingMode,
} from './framing.js';
export {
  checkHostKey,
  fingerprintSha256,
  type HostKeyCheck,
  type KnownHostEntry,
  knownHostsName,
  parseKnownHosts,
} from './host-key.js';
export { NETCONF_BASE_NS, type NetconfNotification, NOTIFICATION_NS } from './messages.js';
export {
  type CommitOptions,
  type ConfigTarget,
  type CreateSubscriptionOptions,
  type Datastore,
  type EditConfigOptions,
  type EstablishSubscriptionOptions,
  type Filter,
  type GetDataOptions,
  NAMESPACES,
  type WithDefaultsMode,
} from './operations.js';
export { replyContent, replyData } from './reply.js';
export { parseRpcErrors } from './rpc-error.js';
export {
  NetconfSessionCore,
  type RpcOptions,
  type RpcReply,
  type SessionEnd,
  type SessionEvents,
  type SessionOptions,
} from './session.js';
export { connectSsh, SshConnection, type SshConnectionEvents, type SshOptions } from './transport-ssh.js';
