// The configuration gate: an environment whose configuration is incomplete answers every request
// 503 INTERNAL_ERROR naming what is missing (never a value), and onError's log line says the same.
import { createMiddleware } from 'hono/factory';
import { checkConfig, isProduction } from '../config';
import type { AppEnv } from '../env';
import { internalError, toErrorResponse } from '../errors';

/** `production`: whether the app was built without the sandbox and development routes. */
export const configurationGate = (production: boolean) =>
  createMiddleware<AppEnv>(async (c, next) => {
    const result = checkConfig(c.env);
    // An app that mounts sandboxes must never serve production, whoever built it.
    const problems = result.ok
      ? isProduction(c.env) && !production
        ? ['this build mounts the sandbox and development routes']
        : []
      : result.problems;
    if (problems.length > 0) {
      return toErrorResponse(
        c,
        internalError('request.notConfigured', { problems: problems.join('; ') }, {
          status: 503,
          suggestions: ['request.setNamedSecretsWrangler'],
        }),
      );
    }
    await next();
  });
