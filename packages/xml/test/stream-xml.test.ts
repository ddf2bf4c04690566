import { describe, expect, test } from 'vitest';
import {
  readXml,
  readXmlDocument,
  readXmlDocumentSteps,
  readXmlSteps,
  streamXml,
  streamXmlElements,
  streamXmlElementsSteps,
  streamXmlSteps,
  type XmlElement,
  type XmlSink,
  type XmlSinkDecision,
} from '../src/index.js';
import { xmlErrorOf } from './helpers.js';

/** A sink that records what it is handed, deciding per element with `decide`. */
function recorder(decide: (e: XmlElement, depth: number) => XmlSinkDecision, positions = true) {
  const events: string[] = [];
  const sink: XmlSink = {
    open(e, depth, start, end) {
      events.push(`open ${e.name} ${depth}${positions ? ` ${start}-${end}` : ''}`);
      return decide(e, depth);
    },
    text(e, text) {
      events.push(`text ${e.name} ${JSON.stringify(text)}`);
    },
    close(e, contentEnd) {
      events.push(`close ${e.name}${positions ? ` ${contentEnd} children=${e.children.length}` : ''}`);
    },
  };
  return { sink, events };
}

describe('streamXml', () => {
  test('hands streamed elements and their text to the sink in document order', () => {
    const { sink, events } = recorder(() => 'stream');
    streamXml('<a><b>x</b><c/></a>', sink);
    expect(events).toEqual([
      'open a 0 0-3',
      'open b 1 3-6',
      'text b "x"',
      'close b 7 children=0',
      'open c 1 11-15',
      'close c 15 children=0',
      'close a 15 children=0',
    ]);
  });

  test('hands a collected element to close with its whole subtree', () => {
    const collected: XmlElement[] = [];
    streamXml('<list><entry><k>1</k></entry><entry><k>2</k></entry></list>', {
      open: (e) => (e.local === 'entry' ? 'collect' : 'stream'),
      text() {},
      close: (e) => void (e.local === 'entry' && collected.push(e)),
    });
    expect(collected.map((e) => (e.children[0] as XmlElement).children[0])).toEqual(['1', '2']);
  });

  test('reads a skipped element without handing on anything below it', () => {
    const { sink, events } = recorder((_e, depth) => (depth === 0 ? 'stream' : 'skip'));
    streamXml('<r><data><x><y>1</y></x></data></r>', sink);
    expect(events).toEqual([
      'open r 0 0-3',
      'open data 1 3-9',
      'close data 24 children=0',
      'close r 31 children=0',
    ]);
  });

  test('still refuses malformed content inside a skipped element', () => {
    const { sink } = recorder(() => 'skip');
    expect(() => streamXml('<r><x><p:y/></x></r>', sink)).toThrow(/prefix "p" is not declared/);
  });

  test('hands top-level elements of a fragment to the sink at depth 0', () => {
    const { sink, events } = recorder(() => 'collect');
    streamXml('<a/> <b>t</b>', sink);
    expect(events).toEqual(['open a 0 0-4', 'close a 4 children=0', 'open b 0 5-8', 'close b 9 children=1']);
  });

  test('refuses input that is neither a string nor pieces of one, or a piece that is not a string, with XmlError', () => {
    const { sink } = recorder(() => 'stream');
    for (const input of [null, 42, { length: 1 }, ['<a>', 7, '</a>']]) {
      expect(xmlErrorOf(() => streamXml(input as never, sink)).code).toBe('XML_MALFORMED');
    }
  });

  test('lets an error thrown by the sink through unchanged', () => {
    const failure = new Error('stop');
    expect(() =>
      streamXml('<a/>', {
        open() {
          throw failure;
        },
        text() {},
        close() {},
      }),
    ).toThrow(failure);
  });
});

describe('streamXmlElements', () => {
  const text = '<a xmlns="urn:a"><b>x</b><c><d/></c><e>y<f/></e></a>';
  /** The calls a sink gets, positions left out (elements read before have none). */
  function calls(
    run: (sink: XmlSink) => void,
    decide: (e: XmlElement, depth: number) => XmlSinkDecision,
  ): string[] {
    const { sink, events } = recorder(decide, false);
    run(sink);
    return events;
  }

  test.each([
    ['every element streamed', () => 'stream' as const],
    ['children of the top collected', (_e: XmlElement, d: number) => (d === 0 ? 'stream' : 'collect')],
    ['children of the top skipped', (_e: XmlElement, d: number) => (d === 0 ? 'stream' : 'skip')],
  ] as const)('hands elements already read to a sink as streamXml hands their text (%s)', (_, decide) => {
    const fromText = calls((sink) => streamXml(text, sink), decide);
    const fromElements = calls((sink) => streamXmlElements(readXml(text), sink), decide);
    expect(fromElements).toEqual(fromText);
    expect(fromText.length).toBeGreaterThan(3);
  });

  test('accepts one element as well as a list', () => {
    const { sink, events } = recorder(() => 'stream');
    streamXmlElements(readXmlDocument('<a/>'), sink);
    expect(events).toEqual(['open a 0 -1--1', 'close a -1 children=0']);
  });

  test('hands a collected element with the children it was read with', () => {
    const { sink, events } = recorder(() => 'collect');
    streamXmlElements(readXml('<a><b/>x</a>'), sink);
    expect(events).toEqual(['open a 0 -1--1', 'close a -1 children=2']);
  });
});

/** Runs steps to their end: how many times they yielded, and what they returned. */
function run<T>(steps: Generator<void, T, void>): { yields: number; value: T } {
  let yields = 0;
  let next = steps.next();
  while (next.done !== true) {
    yields++;
    next = steps.next();
  }
  return { yields, value: next.value };
}

describe('reading in steps', () => {
  const entries = (n: number) =>
    `<list>${Array.from({ length: n }, (_, i) => `<entry a="${i}"><name>e${i}</name><!-- c --></entry>`).join('\n')}</list>`;

  test.each<[string, string, (text: string) => Generator<void, unknown, void>, (text: string) => unknown]>([
    ['readXmlSteps', 'readXml', readXmlSteps, readXml],
    ['readXmlDocumentSteps', 'readXmlDocument', readXmlDocumentSteps, readXmlDocument],
  ])('%s yields while it reads a long document and returns what %s returns', (_, __, steps, read) => {
    const text = entries(3_000);
    const { yields, value } = run(steps(text));
    expect(yields).toBeGreaterThan(10);
    expect(value).toEqual(read(text));
  });

  test('streamXmlSteps hands the sink what streamXml hands it', () => {
    const text = entries(1_500);
    const a = recorder(() => 'stream');
    const b = recorder(() => 'stream');
    streamXml(text, a.sink);
    for (const _ of streamXmlSteps(text, b.sink)) {
      // every step is taken
    }
    expect(b.events).toEqual(a.events);
  });

  test('streamXmlElementsSteps yields while it hands many elements, and hands what streamXmlElements hands', () => {
    const elements = readXml(entries(3_000));
    const a = recorder(() => 'stream', false);
    const b = recorder(() => 'stream', false);
    streamXmlElements(elements, a.sink);
    expect(run(streamXmlElementsSteps(elements, b.sink)).yields).toBeGreaterThan(10);
    expect(b.events).toEqual(a.events);
  });

  test('runs the steps a sink left at a close as steps of its own, before the next element is handed on', () => {
    const text = `<top><big>${entries(10)}</big><after/></top>`;
    const drivers: ((sink: XmlSink) => Generator<void, unknown, void>)[] = [
      (sink) => streamXmlSteps(text, sink),
      (sink) => streamXmlElementsSteps(readXml(text), sink),
    ];
    for (const drive of drivers) {
      const events: string[] = [];
      let left: Generator<void, void, void> | undefined;
      const sink: XmlSink = {
        open: (e) => (e.name === 'big' ? 'collect' : 'stream'),
        text: () => {},
        close(e) {
          events.push(`close ${e.name}`);
          if (e.name !== 'big') return;
          left = (function* () {
            for (let i = 0; i < 3; i++) {
              events.push(`work ${i}`);
              yield;
            }
          })();
        },
        takeSteps() {
          const steps = left;
          left = undefined;
          return steps;
        },
      };
      const { yields } = run(drive(sink));
      expect(events).toEqual(['close big', 'work 0', 'work 1', 'work 2', 'close after', 'close top']);
      expect(yields).toBeGreaterThanOrEqual(3);
    }
  });

  test('a malformed document fails at the step that reaches the fault', () => {
    const steps = readXmlSteps(`${entries(2_000).slice(0, -7)}</entry>`);
    expect(() => {
      while (steps.next().done !== true) {
        // read on
      }
    }).toThrow('expected </list>, found </entry> (line 2000');
  });
});
