import { seedBatchPart } from './seed-batch.js';

seedBatchPart(3);
