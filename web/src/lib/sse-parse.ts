import { createParser, type EventSourceParser } from 'eventsource-parser';

/**
 * A text/event-stream parser handing on each message's event name (`message` when the server
 * named none, as EventSource does) and data. Fed chunks as they arrive, split anywhere.
 */
export const createMessageParser = (onMessage: (event: string, data: string) => void, onRetry?: (ms: number) => void): EventSourceParser =>
  createParser({ onEvent: (message) => onMessage(message.event ?? 'message', message.data), ...(onRetry ? { onRetry } : {}) });
