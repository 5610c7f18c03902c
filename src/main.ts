/**
 * `npm start`: loads settings from the environment, starts the server, prints how to reach
 * it, and shuts down cleanly (snapshot, close) on SIGINT/SIGTERM.
 */
import { loadConfig } from './config.ts';
import { startServer } from './server.ts';

async function main(): Promise<void> {
  const config = loadConfig();
  const server = await startServer(config, (line) => process.stdout.write(`${line}\n`));
  const { credentials } = server;
  process.stdout.write(
    [
      '',
      `bourse is listening on ${server.url}`,
      `  data directory   ${config.dataDir} (credentials in credentials.json, mode 0600)`,
      `  clock            ${config.clock}`,
      credentials.apiKey
        ? [
            `  demo account     uid ${credentials.uid}`,
            `  apiKey           ${credentials.apiKey}`,
            `  secretKey        ${credentials.secretKey}`,
            `  passphrase       ${credentials.passphrase}`,
          ].join('\n')
        : '  demo account     none (BOURSE_SEED_DEMO=false or credentials.json removed)',
      `  operator token   ${credentials.operatorToken}`,
      '',
    ].join('\n'),
  );
  const stop = async () => {
    await server.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop());
  process.once('SIGTERM', () => void stop());
}

main().catch((error: unknown) => {
  process.stderr.write(`bourse failed to start: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
