// Where `npm start` serves and the wrangler dev arguments for it. The service builds every link
// (checkout, recipient page, e-mails, provider return URLs) from PUBLIC_BASE_URL, so it is passed
// as a variable: a second instance on PORT=8788 hands out links to 8788, not to wrangler.toml's 8787.
// Pure (no Node APIs), so the test suite checks it in workerd.

export const LOCAL_HOST = '127.0.0.1';

/** `port`: the PORT environment variable, 8787 when unset. */
export function localServer(port = '8787') {
  const base = `http://${LOCAL_HOST}:${port}`;
  return {
    base,
    // --test-scheduled: npm start fires the crons itself (and says so); without it wrangler's banner
    // claims that scheduled jobs do not run locally.
    devArgs: ['dev', '--ip', LOCAL_HOST, '--port', String(port), '--var', `PUBLIC_BASE_URL:${base}`, '--show-interactive-dev-session=false', '--test-scheduled'],
  };
}
