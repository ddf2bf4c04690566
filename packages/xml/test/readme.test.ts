import path from 'node:path';
import { testReadmeExamples } from '../../../readme-examples.ts';
import * as lib from '../src/index.js';

testReadmeExamples(path.resolve(__dirname, '../README.md'), '@yangkit/xml', lib, 6);
