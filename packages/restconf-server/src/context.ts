import type { QueryParameters, RequestTarget } from '@yangkit/restconf-uri';
import type { SchemaTree } from '@yangkit/yang-schema';
import type { Backend } from './backend.js';
import type { BodyAdmission } from './body-admission.js';
import type { ChangeClock } from './change-clock.js';
import type { IdleCollection } from './idle-collection.js';
import type { Encoding } from './media.js';
import type { DefaultStyle, Logger, SystemSortType } from './options.js';
import type { Responder } from './response.js';
import type { EventStreams } from './streams/index.js';
import type { SubscriptionSettings } from './subscriptions/index.js';

/** The handler's options with every default filled in. */
export interface Settings {
  readonly schema: SchemaTree;
  readonly backend: Backend;
  readonly root: string;
  readonly serverUrl: string;
  readonly defaultEncoding: Encoding;
  readonly strictHeaders: boolean;
  readonly simpleJsonNames: boolean;
  readonly messageIndent: number;
  readonly defaultStyle: DefaultStyle;
  readonly returnEmptyNpContainers: boolean;
  readonly systemSorted: boolean;
  readonly systemSortType: SystemSortType;
  readonly withJsonMetadata: boolean;
  readonly withYangMetadata: boolean;
  readonly wildcardKeys: boolean;
  readonly withRestconf: boolean;
  readonly withNmda: boolean;
  readonly capabilities: readonly string[];
  readonly logger: Logger | undefined;
  readonly maxBodyBytes: number;
  readonly maxKeyLength: number;
  readonly maxStringLength: number;
  readonly maxBodyNodes: number;
  /** The bound on the request bodies read, decoded and applied at once, across all clients. */
  readonly bodies: BodyAdmission;
  /** Gives the memory of a busy period back once the server is quiet (with `collectGarbage`). */
  readonly idle: IdleCollection | undefined;
  readonly clock: ChangeClock;
  /** Event streams (RFC 8040 section 6). */
  readonly events: EventStreams;
  /** Limits of the RFC 8650 subscriptions. */
  readonly subscriptions: SubscriptionSettings;
}

/** One request as the resource handlers see it. */
export interface RequestContext {
  readonly settings: Settings;
  readonly method: string;
  readonly target: RequestTarget;
  readonly query: QueryParameters;
  readonly out: Responder;
  /** The negotiated response encoding (errors use it too). */
  encoding: Encoding;
  /** The user the request was authenticated as; the backend works as this user. */
  readonly user: string | undefined;
}

/**
 * Encoder options from the settings. RFC 7952 metadata is written only with `withYangMetadata`, and
 * in JSON only with `withJsonMetadata` too; without an encoding both must be on.
 */
export function encodeOptions(
  s: Settings,
  encoding?: Encoding,
): {
  indent: number;
  returnEmptyNpContainers: boolean;
  sortSystemOrdered: false | SystemSortType;
  metadata: boolean;
  simpleNames: boolean;
} {
  return {
    indent: s.messageIndent,
    returnEmptyNpContainers: s.returnEmptyNpContainers,
    sortSystemOrdered: s.systemSorted ? s.systemSortType : false,
    metadata: s.withYangMetadata && (encoding === 'xml' || s.withJsonMetadata),
    simpleNames: s.simpleJsonNames,
  };
}
