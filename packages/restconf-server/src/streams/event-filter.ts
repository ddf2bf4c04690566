import { type InstanceTree, type Steps, treeNavigator } from '@yangkit/yang-json-codec';
import type { SchemaTree } from '@yangkit/yang-schema';
import { type CompiledXPath, compileXPath, XPathError } from '@yangkit/yang-xpath';
import type { XPathFilter } from '../backend.js';
import { RestconfError } from '../errors.js';

/** Longest `filter` expression accepted, in characters. */
export const MAX_FILTER_LENGTH = 4096;

/**
 * A compiled `filter` query parameter (RFC 8040 section 4.8.4): an XPath 1.0 expression over the
 * notification's event. Prefixes are module names, or the modules' own prefixes.
 */
export interface EventFilter {
  /** The expression as given. */
  readonly expression: string;
  /** The filter for a backend that evaluates XPath itself. */
  readonly forBackend: XPathFilter;
  /**
   * Evaluates the filter over a decoded notification (its event: every child but eventTime), at
   * once, within the bound of work: an event it cannot be evaluated on, past the bound too, is not
   * selected (RFC 5277 section 3.6).
   */
  matches(notification: InstanceTree): boolean;
  /**
   * {@link EventFilter.matches} in steps (yang-xpath's `evaluateBooleanSteps`), to be run in slices:
   * throws yang-xpath's `WORK_LIMIT` error past the bound, for the caller to tell; any other event
   * the filter cannot be evaluated on is not selected.
   */
  matchesSteps(notification: InstanceTree): Steps<boolean>;
}

/**
 * Compiles `expression`; a syntax error or an unknown prefix is a 400 `invalid-value`. Its
 * evaluation on an event is bounded by `maxWork` units (yang-xpath's `maxWork`; default none).
 */
export function compileEventFilter(schema: SchemaTree, expression: string, maxWork?: number): EventFilter {
  if (expression.length > MAX_FILTER_LENGTH) {
    throw invalid(`the filter is longer than ${MAX_FILTER_LENGTH} characters`);
  }
  const prefixes: Record<string, string> = {};
  for (const m of schema.modules) {
    prefixes[m.prefix] ??= m.namespace;
  }
  // Module names win over a module prefix that happens to spell another module's name.
  for (const m of schema.modules) prefixes[m.name] = m.namespace;
  let compiled: CompiledXPath;
  try {
    compiled = compileXPath(expression, { prefixes });
  } catch (error) {
    throw invalid(`the filter is not a valid XPath expression: ${(error as Error).message}`, error);
  }
  // Only the prefixes the expression uses go to the backend.
  const used: Record<string, string> = {};
  for (const match of expression.matchAll(/([A-Za-z_][\w.-]*):(?!:)/g)) {
    const prefix = match[1]!;
    const ns = prefixes[prefix];
    if (ns !== undefined) used[prefix] = ns;
  }
  const options = maxWork === undefined ? {} : { maxWork };
  return {
    expression,
    forBackend: { xpath: expression, namespaces: used },
    matches(notification) {
      try {
        // Evaluated on the decoded event itself (the document's children), nothing serialised.
        return compiled.evaluateBoolean(notification, treeNavigator(notification), options);
      } catch {
        // An event the filter cannot be evaluated on is not selected (RFC 5277 section 3.6).
        return false;
      }
    },
    *matchesSteps(notification) {
      try {
        return yield* compiled.evaluateBooleanSteps(notification, treeNavigator(notification), options);
      } catch (error) {
        if (XPathError.isWorkLimit(error)) throw error;
        return false;
      }
    },
  };
}

function invalid(message: string, cause?: unknown): RestconfError {
  return new RestconfError('REQUEST_INVALID', message, {
    errorType: 'protocol',
    errorTag: 'invalid-value',
    ...(cause === undefined ? {} : { cause }),
  });
}
