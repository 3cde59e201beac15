import { afterAll, afterEach } from 'vitest';
import { App } from './app';
import { FakeUpstream } from './fake-upstream';

/**
 * Each test's own fake upstream and app (own store), stopped after the test. Call at the top of a
 * test file: `prepare` shapes every fake before its app boots, `env` is the apps' default
 * environment; each scenario may shape its fake further and replace the environment.
 */
export function scenarios(defaults: { env?: Record<string, string>; prepare?: (fake: FakeUpstream) => void } = {}) {
  const open: { app: App; fake: FakeUpstream }[] = [];
  const stopAll = async () => {
    for (const { app, fake } of open.splice(0)) {
      await app.stop();
      await fake.close();
    }
  };
  afterEach(stopAll);
  afterAll(stopAll);
  return async function scenario(setup?: (fake: FakeUpstream) => void, env: Record<string, string> = defaults.env ?? {}) {
    const fake = await FakeUpstream.start();
    defaults.prepare?.(fake);
    setup?.(fake);
    const app = await App.start({ env: { ...fake.env(), ...env } });
    open.push({ app, fake });
    return { app, fake };
  };
}
