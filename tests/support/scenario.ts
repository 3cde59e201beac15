import { afterAll, afterEach } from 'vitest';
import { App } from './app';
import { FakeUpstream } from './fake-upstream';

type Pair = { app: App; fake: FakeUpstream };

/**
 * Each test's own fake upstream and app (own store), stopped after the test. Call at the top of a
 * test file: `prepare` shapes every fake before its app boots, `env` is the apps' default
 * environment; each scenario may shape its fake further and replace the environment.
 *
 * Booting an app is most of a scenario's cost, so while a test runs the next default app boots
 * beside it. That spare is equivalent to one booted after `setup`: an app asks no upstream until
 * its first request (tests run with WARM_FEEDS=off and SAMPLER=off), so a fake shaped after the
 * boot is one the app has never seen otherwise. A file of one or two scenarios (`spare: false`) would boot a spare
 * it never takes: on a machine whose cores the run keeps busy, that is a boot's CPU taken from the other files.
 */
export function scenarios(defaults: { env?: Record<string, string>; prepare?: (fake: FakeUpstream) => void; spare?: boolean } = {}) {
  const defaultEnv = defaults.env ?? {};
  const open: Pair[] = [];
  let spare: Promise<Pair> | null = null;

  const boot = async (env: Record<string, string>): Promise<Pair> => {
    const fake = await FakeUpstream.start();
    defaults.prepare?.(fake);
    try {
      return { app: await App.start({ env: { ...fake.env(), ...env } }), fake };
    } catch (err) {
      await fake.close();
      throw err;
    }
  };
  const stop = async ({ app, fake }: Pair) => {
    await app.stop();
    await fake.close();
  };
  const stopAll = async () => {
    for (const pair of open.splice(0)) await stop(pair);
  };
  afterEach(stopAll);
  afterAll(async () => {
    await stopAll();
    const left = spare;
    spare = null;
    if (left) await left.then(stop, () => {});
  });

  return async function scenario(setup?: (fake: FakeUpstream) => void, env: Record<string, string> = defaultEnv): Promise<Pair> {
    const isDefault = JSON.stringify(env) === JSON.stringify(defaultEnv);
    let pair: Pair;
    if (isDefault && spare) {
      pair = await spare;
      spare = null;
    } else {
      pair = await boot(env);
    }
    setup?.(pair.fake);
    open.push(pair);
    if (!spare && defaults.spare !== false) {
      spare = boot(defaultEnv);
      // A failed spare boot is reported by the scenario that takes it, not as an unhandled rejection.
      spare.catch(() => {});
    }
    return pair;
  };
}
