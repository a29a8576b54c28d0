/**
 * `npm run redrive -- --dlq <url> --queue <url> [--dry-run]`: moves
 * consolidation jobs from the dead-letter queue back to the consolidation
 * queue, printing each with its recorded cause. Queue URLs default to
 * CONSOLIDATION_DLQ_URL and BATCH_QUEUE_URL; the agents table to
 * AGENTS_TABLE_NAME. For a deployed stack, the stack outputs give all three.
 */
import { parseArgs } from 'node:util';
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { SQSClient } from '@aws-sdk/client-sqs';
import { DynamoDbAgentLedger } from '../functions/adapters/dynamodb/agent-ledger.js';
import { redriveDeadLetters } from '../functions/adapters/sqs/redrive-dead-letters.js';

const { values } = parseArgs({
  options: {
    dlq: { type: 'string', default: process.env.CONSOLIDATION_DLQ_URL },
    queue: { type: 'string', default: process.env.BATCH_QUEUE_URL },
    table: { type: 'string', default: process.env.AGENTS_TABLE_NAME },
    'dry-run': { type: 'boolean', default: false },
  },
});
if (!values.dlq || !values.queue || !values.table) {
  process.stderr.write('usage: npm run redrive -- --dlq <dead-letter queue URL> --queue <queue URL> --table <agents table> [--dry-run]\n');
  process.exit(2);
}
const sqs = new SQSClient({ useQueueUrlAsEndpoint: false });
const ledger = new DynamoDbAgentLedger(DynamoDBDocumentClient.from(new DynamoDBClient({})), values.table);
const jobs = await redriveDeadLetters(sqs, ledger, { deadLetterQueueUrl: values.dlq, queueUrl: values.queue, dryRun: values['dry-run'] });
for (const job of jobs) process.stdout.write(`${job.moved ? 'moved' : 'found'}  agent=${job.agentId} batch=${job.batch}  cause=${job.cause ?? '(none recorded)'}\n`);
process.stdout.write(`${jobs.length} job(s) ${values['dry-run'] ? 'found' : 'redriven'}\n`);
