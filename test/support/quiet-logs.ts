// Handlers log JSON lines through Powertools; tests assert behaviour, not log output.
process.env.POWERTOOLS_LOG_LEVEL ??= 'SILENT';
process.env.POWERTOOLS_METRICS_DISABLED ??= 'true';
