export { consoleLogger } from './console-logger.js';
export {
  type LogFields,
  type Logger,
  type LoggerOptions,
  type LogLevel,
  type LogSettings,
  loggerFor,
  silentLogger,
} from './logger.js';
export { redactFields, redactingLogger } from './redacting-logger.js';
