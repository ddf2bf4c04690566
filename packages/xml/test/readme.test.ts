import path from 'node:path';
import { testReadmeExamples } from '../../../test-support/readme-examples.js';

testReadmeExamples(path.resolve(__dirname, '../README.md'));
