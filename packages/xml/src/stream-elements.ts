import type { XmlChild, XmlElement } from './element.js';
import { XML_STEP, type XmlSink } from './reader.js';

/** An element being handed on, with the index of its next child. */
interface Open {
  readonly element: XmlElement;
  readonly skip: boolean;
  next: number;
}

/**
 * Hands elements already read (by {@link readXml} or {@link readXmlDocument}) to `sink` as
 * {@link streamXml} would hand the text they were read from, so that one consumer serves both:
 * the same calls in the same order, the sink's decisions honoured. The source positions given to
 * `open` and `close` are -1, as there is no text, and a streamed or skipped element keeps the
 * children it was read with. Iterative: nesting depth cannot exhaust the stack.
 */
export function streamXmlElements(elements: XmlElement | readonly XmlElement[], sink: XmlSink): void {
  const steps = streamXmlElementsSteps(elements, sink);
  while (steps.next().done !== true);
}

/**
 * {@link streamXmlElements} in steps: the generator yields after every few hundred elements handed
 * on, so that a server can give the event loop back while a big document is decoded.
 */
export function* streamXmlElementsSteps(
  elements: XmlElement | readonly XmlElement[],
  sink: XmlSink,
): Generator<void, void, void> {
  const top: readonly XmlChild[] = Array.isArray(elements) ? elements : [elements as XmlElement];
  let handed = 0;
  for (const element of top) {
    if (typeof element === 'string') continue;
    const stack: Open[] = [];
    const enter = (e: XmlElement): void => {
      const depth = stack.length;
      const decision = sink.open(e, depth, -1, -1);
      if (decision === 'collect') sink.close(e, -1);
      else stack.push({ element: e, skip: decision === 'skip', next: 0 });
    };
    enter(element);
    // The work a collected element's `close` left (see XmlSink.takeSteps) runs as steps here.
    let more = sink.takeSteps?.();
    if (more !== undefined) yield* more;
    while (stack.length > 0) {
      const open = stack[stack.length - 1]!;
      const children = open.element.children;
      if (open.skip || open.next >= children.length) {
        stack.pop();
        sink.close(open.element, -1);
        more = sink.takeSteps?.();
        if (more !== undefined) yield* more;
        continue;
      }
      const child = children[open.next++]!;
      if (typeof child === 'string') sink.text(open.element, child);
      else {
        enter(child);
        more = sink.takeSteps?.();
        if (more !== undefined) yield* more;
        if (++handed % XML_STEP === 0) yield;
      }
    }
  }
}
