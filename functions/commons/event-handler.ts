/**
 * The one shape of every handler: Lambda context in every log line
 * (`injectLambdaContext`) and metrics flushed whatever the outcome, also
 * when the handler throws (as a full-batch failure does).
 */
import middy, { type MiddlewareObj } from '@middy/core';
import { injectLambdaContext } from '@aws-lambda-powertools/logger/middleware';
import type { Metrics } from '@aws-lambda-powertools/metrics';
import type { Context } from 'aws-lambda';
import { logger, metrics } from './powertools.js';

/**
 * Publishes the metrics an invocation stored, after it returns or throws.
 * Unlike Powertools' `logMetrics`, an invocation that stored none (an idle
 * poll, a health read) publishes nothing and warns about nothing.
 */
export function flushMetrics(instance: Metrics): MiddlewareObj {
  const flush = async () => {
    if (instance.hasStoredMetrics()) instance.publishStoredMetrics();
  };
  return { after: flush, onError: flush };
}

export function eventHandler<E, R>(handler: (event: E, context: Context) => Promise<R>) {
  return middy<E, R, Error, Context>(handler)
    .use(injectLambdaContext(logger, { resetKeys: true }))
    .use(flushMetrics(metrics));
}
