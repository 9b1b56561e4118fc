import { Context } from '@temporalio/activity';

/**
 * Runs an activity's work while heartbeating every second, so Temporal hands the activity to
 * another worker within the heartbeat timeout when this one dies, instead of waiting out the
 * start-to-close timeout.
 */
export function heartbeating<A extends unknown[], T>(activity: (...args: A) => Promise<T>): (...args: A) => Promise<T> {
  return async (...args) => {
    const context = Context.current();
    const timer = setInterval(() => context.heartbeat(), 1000);
    try {
      return await activity(...args);
    } finally {
      clearInterval(timer);
    }
  };
}
