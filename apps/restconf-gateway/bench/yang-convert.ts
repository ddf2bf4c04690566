import { spawnSync } from 'node:child_process';
import {
  closeSync,
  existsSync,
  mkdtempSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { interfacesXml } from '../../../packages/yang-json-codec/bench/interfaces-document.js';

/**
 * `yang-convert` (the bin of @yangkit/yang-json-codec) converting ietf-interfaces XML to JSON and
 * back as a user runs it, a whole process from start to exit, beside libyang's yanglint doing the same when
 * it is on the PATH (`apt-get install libyang2-tools`), each timed by GNU time (`/usr/bin/time`),
 * which also gives its peak resident size.
 */

const root = fileURLToPath(new URL('../../../', import.meta.url));
/** The command's file, run as a user runs it: through its `#!` line, which gives Node its flags. */
const CLI = path.join(root, 'packages/yang-json-codec/bin/yang-convert.js');
/** ietf-interfaces, ietf-ip and the modules they import. */
const YANG = path.join(root, 'packages/yang-schema/yang');
/** iana-if-type, for the interface types of the document. */
const IANA = path.join(root, 'yang/rfc7223');
const MODULES = [
  path.join(YANG, 'ietf-interfaces@2018-02-20.yang'),
  path.join(YANG, 'ietf-ip@2018-02-22.yang'),
  path.join(IANA, 'iana-if-type@2014-05-08.yang'),
];

const GNU_TIME = '/usr/bin/time';
/** Whether GNU time is there to measure the processes. */
export const gnuTimeAvailable = existsSync(GNU_TIME);
/** Whether libyang's yanglint is on the PATH. */
export const yanglintAvailable = spawnSync('yanglint', ['--version']).error === undefined;

/** Wall time and peak resident size of one process. */
export interface ProcessCost {
  readonly seconds: number;
  readonly peakKb: number;
}

/** Runs `command` under GNU time with its output to a file, as `> out` would; throws when it fails. */
function timed(command: readonly string[], out: string, dir: string): ProcessCost {
  const report = path.join(dir, 'time.txt');
  const fd = openSync(out, 'w');
  const r = spawnSync(GNU_TIME, ['-f', '%e %M', '-o', report, ...command], { stdio: ['ignore', fd, 'pipe'] });
  closeSync(fd);
  if (r.status !== 0) throw new Error(`${command.join(' ')} failed: ${r.stderr?.toString()}`);
  const [seconds, kb] = readFileSync(report, 'utf8').trim().split('\n').pop()!.split(' ').map(Number) as [
    number,
    number,
  ];
  return { seconds, peakKb: kb };
}

/** One conversion measured with both tools; yanglint's is missing when it is not installed. */
export interface ConvertCost {
  readonly cli: ProcessCost;
  readonly yanglint: ProcessCost | undefined;
}

/** Both directions of the conversion. */
export interface ConvertCosts {
  readonly xmlToJson: ConvertCost;
  readonly jsonToXml: ConvertCost;
}

/** The fastest time and the largest peak of two runs. */
function best(a: ProcessCost | undefined, b: ProcessCost): ProcessCost {
  return {
    seconds: Math.min(a?.seconds ?? Number.POSITIVE_INFINITY, b.seconds),
    peakKb: Math.max(a?.peakKb ?? 0, b.peakKb),
  };
}

/**
 * Converts `input` to `to` with both tools, `rounds` times in turn, each writing its output to a
 * file of `dir`; each keeps its fastest run and its largest peak.
 */
function convertWithBoth(
  input: string,
  from: 'xml' | 'json',
  to: 'xml' | 'json',
  rounds: number,
  dir: string,
): ConvertCost {
  const cli = [CLI, '--path', YANG, '--path', IANA];
  for (const m of ['ietf-interfaces', 'ietf-ip', 'iana-if-type']) cli.push('--module', m);
  cli.push('--kind', 'config', '--from', from, '--to', to, input);
  const lint = ['yanglint', '-p', YANG, ...MODULES, '-t', 'config', '-f', to, input];
  let ours: ProcessCost | undefined;
  let theirs: ProcessCost | undefined;
  for (let round = 0; round < rounds; round++) {
    ours = best(ours, timed(cli, path.join(dir, `cli.${to}`), dir));
    if (yanglintAvailable) theirs = best(theirs, timed(lint, path.join(dir, `yanglint.${to}`), dir));
  }
  if (ours === undefined) throw new Error('BENCH_ROUNDS must be at least 1');
  return { cli: ours, yanglint: theirs };
}

/**
 * Converts `count` interfaces XML -> JSON, then the JSON that `yang-convert` wrote back to XML,
 * with both tools, `rounds` times each; yanglint is left out when it is not installed.
 */
export function measureConvert(count: number, rounds: number): ConvertCosts {
  const dir = mkdtempSync(path.join(tmpdir(), 'yang-convert-bench-'));
  try {
    const xml = path.join(dir, 'interfaces.xml');
    writeFileSync(xml, interfacesXml(count));
    const xmlToJson = convertWithBoth(xml, 'xml', 'json', rounds, dir);
    // yanglint reads the format of its input from the file's extension.
    const json = path.join(dir, 'interfaces.json');
    renameSync(path.join(dir, 'cli.json'), json);
    return { xmlToJson, jsonToXml: convertWithBoth(json, 'json', 'xml', rounds, dir) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
