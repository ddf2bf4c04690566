import {
  readXmlDocument,
  readXmlDocumentSteps,
  type Steps,
  type XmlElement,
  XmlError,
  type XmlLimits,
} from '@yangkit/xml';
import { NetconfError } from './errors.js';

/**
 * A NETCONF message read by `@yangkit/xml`, what it refuses reported as the session's own error:
 * `XML_FORBIDDEN` for DOCTYPE, entities and processing instructions (the door to entity expansion
 * attacks, and never in an RFC 6241 message), `XML_PARSE` for everything else; the reader's
 * `XmlError` (with line and column) is the `cause`.
 */
export function readMessage(text: string, limits: XmlLimits): XmlElement {
  try {
    return readXmlDocument(text, limits);
  } catch (error) {
    throw XmlError.isInstance(error) ? messageError(error) : error;
  }
}

/** {@link readMessage} in steps (the XML layer's `readXmlDocumentSteps`), for a large message. */
export function* readMessageSteps(text: string, limits: XmlLimits): Steps<XmlElement> {
  try {
    return yield* readXmlDocumentSteps(text, limits);
  } catch (error) {
    throw XmlError.isInstance(error) ? messageError(error) : error;
  }
}

/** The session's error for a message the reader refused. */
export function messageError(error: XmlError): NetconfError {
  return new NetconfError(error.code === 'XML_FORBIDDEN' ? 'XML_FORBIDDEN' : 'XML_PARSE', error.message, {
    cause: error,
  });
}
